import type { DecodedText, FileKind, LineEnding } from '@kimi-tools/core/toolkit';

/** What NotebookEdit tells about a file; the result's `extras` hold the same object. */
export interface NotebookEditFacts {
  /** `text`, `image`, `video` or `binary` (text that does not decode is `binary`). */
  kind: FileKind['kind'];
  /** Size in bytes. */
  size: number;
  /** Media type of an image or a video, e.g. `image/png`. */
  mediaType?: string;
  /** Text details: the encoding, e.g. `utf-8`, `utf-16le`, `gbk`. */
  encoding?: string;
  /** Text details: whether the file starts with a byte order mark. */
  bom?: boolean;
  /** Text details: the most frequent line ending (`lf` when there is none). */
  lineEndings?: LineEndingName;
  /** Text details: the number of lines; a last line without a line break counts, an empty file has none. */
  lines?: number;
}

/** A line ending as the output names it. */
export type LineEndingName = 'lf' | 'crlf' | 'cr';

const LINE_ENDING_NAMES: Readonly<Record<LineEnding, LineEndingName>> = {
  '\n': 'lf',
  '\r\n': 'crlf',
  '\r': 'cr',
};

/** The facts every file has: its kind (with the media type of an image or a video) and its size. */
export function basicFacts(kind: FileKind, size: number): NotebookEditFacts {
  return 'mime' in kind ? { kind: kind.kind, size, mediaType: kind.mime } : { kind: kind.kind, size };
}

/** The text details of a decoded file. */
export function textDetails(
  decoded: DecodedText,
): Pick<NotebookEditFacts, 'encoding' | 'bom' | 'lineEndings' | 'lines'> {
  const { text, format } = decoded;
  let breaks = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) breaks += 1;
  return {
    encoding: format.encoding,
    bom: format.bom,
    lineEndings: LINE_ENDING_NAMES[format.lineEnding],
    lines: text === '' || text.endsWith('\n') ? breaks : breaks + 1,
  };
}

/** The output: one `name: value` line per known fact, always in the same order. */
export function formatFacts(facts: NotebookEditFacts): string {
  const rows: [string, string | number | undefined][] = [
    ['kind', facts.kind],
    ['media type', facts.mediaType],
    ['size', `${facts.size} bytes`],
    ['encoding', facts.encoding],
    ['bom', facts.bom === undefined ? undefined : facts.bom ? 'yes' : 'no'],
    ['line endings', facts.lineEndings],
    ['lines', facts.lines],
  ];
  return rows
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** The message: the kind, the size and, when counted, the lines, in one sentence. */
export function factsMessage(shown: string, facts: NotebookEditFacts): string {
  const lines = facts.lines === undefined ? '' : `, ${facts.lines} lines`;
  return `\`${shown}\`: ${facts.kind} file, ${facts.size} bytes${lines}.`;
}

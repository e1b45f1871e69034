import { formatLines, SHOWN_LINE_MAX_LENGTH, shownLine } from '../text/shown-line.js';

/** What a write tool's `output` may hold at most, in UTF-8 bytes (8 KiB). */
export const SNIPPET_MAX_BYTES = 8 * 1024;
/** Unchanged lines shown around each changed place. */
export const SNIPPET_CONTEXT_LINES = 3;
/** A longer line, in code points with its line break, is cut and ends with `...`, as ReadFile cuts it. */
export const SNIPPET_LINE_MAX_CHARS = SHOWN_LINE_MAX_LENGTH;
/** The line that stands between two shown places that are not next to each other. */
export const SNIPPET_GAP_LINE = '...';

/** Lines `[from, from + count)` of a text (1-based); `count` 0 is the point before line `from` (a deletion). */
export interface LineSpan {
  from: number;
  count: number;
}

/** Numbered lines of a text around some places, within {@link SNIPPET_MAX_BYTES}. */
export interface LineSnippet {
  /**
   * ReadFile's numbered lines, places that are not next to each other parted by {@link SNIPPET_GAP_LINE}; the text's
   * last line ends without a line break when it has none, as ReadFile ends it ({@link withFinalLineBreak} before text
   * that follows).
   */
  output: string;
  /** The lines of the places that did not fit, when some did not. */
  unshown?: { from: number; to: number };
}

/** Options of {@link lineSnippet}. */
export interface LineSnippetOptions {
  /** `head` (default) keeps the first lines when the snippet is too long; `tail` keeps the last. */
  keep?: 'head' | 'tail';
  /** Default {@link SNIPPET_CONTEXT_LINES}. */
  context?: number;
  /** Default {@link SNIPPET_MAX_BYTES}. */
  maxBytes?: number;
  /** The file's line number of the text's first line, when the text is a piece of a file (default 1). */
  firstLine?: number;
  /**
   * The text is a piece of a file that ends inside a line (a window cut there): that line goes on in the file, so it
   * is cut and ended as a line with a break, as ReadFile shows it (default false: the text's end is the file's).
   */
  endsInsideLine?: boolean;
}

/**
 * Reads the lines of a text in increasing order without splitting it: a snippet of a 1 GiB file costs the lines it
 * shows, not an array of every line.
 */
class LineCursor {
  private line = 1;
  private offset = 0;

  /** `endsInsideLine`: the text's last line goes on in the file, so it counts as ended by a line break. */
  constructor(
    private readonly text: string,
    private readonly endsInsideLine: boolean,
  ) {}

  /**
   * Line `number` (1-based, never less than the one asked before) and whether a line break ends it in the file, or
   * undefined past the last line.
   */
  at(number: number): { text: string; terminated: boolean } | undefined {
    while (this.line < number) {
      const lineBreak = this.text.indexOf('\n', this.offset);
      if (lineBreak === -1) return undefined;
      this.offset = lineBreak + 1;
      this.line++;
    }
    // A final line break ends the last line; it does not start another.
    if (this.offset >= this.text.length) return undefined;
    const end = this.text.indexOf('\n', this.offset);
    return {
      text: this.text.slice(this.offset, end === -1 ? undefined : end),
      terminated: end !== -1 || this.endsInsideLine,
    };
  }
}

// Cut, pictured and ended by ReadFile's own rule, so a snippet line reads as ReadFile shows it (an emoji is never
// split, and the file's last line has no line break when the file has none).
function shown(number: number, line: { text: string; terminated: boolean }): string {
  return formatLines([shownLine(number, line.text, line.terminated, false)]);
}

/**
 * The lines of `text` (`\n`-normalised) at `spans` with a few lines of context, places whose context windows touch or
 * nearly touch merged into one, in ReadFile's numbered format; cut to {@link SNIPPET_MAX_BYTES} by whole lines, keeping
 * the first lines (or the last, `keep: 'tail'`), and then saying which lines were left out.
 */
export function lineSnippet(
  text: string,
  spans: readonly LineSpan[],
  options: LineSnippetOptions = {},
): LineSnippet {
  const cursor = new LineCursor(text, options.endsInsideLine === true);
  const context = options.context ?? SNIPPET_CONTEXT_LINES;
  const maxBytes = options.maxBytes ?? SNIPPET_MAX_BYTES;
  const shift = (options.firstLine ?? 1) - 1;
  const windows: Array<{ from: number; to: number }> = [];
  for (const span of [...spans].sort((a, b) => a.from - b.from)) {
    const from = Math.max(1, span.from - context);
    const to = span.from + span.count - 1 + context;
    if (from > to) continue;
    const last = windows[windows.length - 1];
    // Places a few lines apart read better as one piece than as two with a gap line between them.
    if (last !== undefined && from <= last.to + context + 1) last.to = Math.max(last.to, to);
    else windows.push({ from, to });
  }
  const pieces: Piece[] = [];
  let budget = 0;
  for (const [index, window] of windows.entries()) {
    const first = cursor.at(window.from);
    if (first === undefined) break;
    if (index > 0) pieces.push({ number: 0, text: `${SNIPPET_GAP_LINE}\n` });
    for (let number = window.from; number <= window.to; number++) {
      const line = number === window.from ? first : cursor.at(number);
      if (line === undefined) break;
      // Lines past the budget of a head snippet are never shown (only named), so they are not formatted either.
      const text = options.keep !== 'tail' && budget > maxBytes ? undefined : shown(number + shift, line);
      pieces.push({ number, text });
      budget += text?.length ?? 0;
    }
  }
  const snippet = options.keep === 'tail' ? keepTail(pieces, maxBytes) : keepHead(pieces, maxBytes);
  if (snippet.unshown === undefined || shift === 0) return snippet;
  return { ...snippet, unshown: { from: snippet.unshown.from + shift, to: snippet.unshown.to + shift } };
}

/** One line of a snippet (`number` 0: the gap line); `text` undefined: past the budget, not formatted. */
interface Piece {
  number: number;
  text: string | undefined;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function lastNumber(pieces: ReadonlyArray<{ number: number }>): number {
  for (let index = pieces.length - 1; index >= 0; index--)
    if (pieces[index]!.number > 0) return pieces[index]!.number;
  return 0;
}

function keepHead(pieces: readonly Piece[], maxBytes: number): LineSnippet {
  let output = '';
  let bytes = 0;
  for (const [index, piece] of pieces.entries()) {
    const size = piece.text === undefined ? Infinity : byteLength(piece.text);
    if (bytes + size > maxBytes || piece.text === undefined) {
      const rest = pieces.slice(index);
      const from = rest.find((candidate) => candidate.number > 0)?.number ?? 0;
      return from > 0 ? { output, unshown: { from, to: lastNumber(rest) } } : { output };
    }
    output += piece.text;
    bytes += size;
  }
  return { output };
}

function keepTail(pieces: readonly Piece[], maxBytes: number): LineSnippet {
  let output = '';
  let bytes = 0;
  for (let index = pieces.length - 1; index >= 0; index--) {
    const piece = pieces[index]!;
    const size = byteLength(piece.text ?? '');
    if (bytes + size > maxBytes) {
      const rest = pieces.slice(0, index + 1);
      const from = rest.find((candidate) => candidate.number > 0)?.number ?? 0;
      return from > 0 ? { output, unshown: { from, to: lastNumber(rest) } } : { output };
    }
    output = (piece.text ?? '') + output;
    bytes += size;
  }
  return { output };
}

/**
 * A snippet's lines (or ReadFile's) with a line break after the last one, for text that follows them on a line of its
 * own (a closing fence, the next file's block): the file's last line may have none.
 */
export function withFinalLineBreak(lines: string): string {
  return lines === '' || lines.endsWith('\n') ? lines : `${lines}\n`;
}

/** The sentence a write tool adds to its message when its snippet was cut. */
export function snippetCutSentence(unshown: { from: number; to: number }): string {
  return ` The output is cut at ${SNIPPET_MAX_BYTES} bytes: read lines ${unshown.from}-${unshown.to} for the rest.`;
}

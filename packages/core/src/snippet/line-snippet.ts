import { showControlCharacters } from '../text/control-pictures.js';
import { numberedLine } from '../text/numbered-line.js';

/** What a write tool's `output` may hold at most, in UTF-8 bytes (8 KiB). */
export const SNIPPET_MAX_BYTES = 8 * 1024;
/** Unchanged lines shown around each changed place. */
export const SNIPPET_CONTEXT_LINES = 3;
/** A longer line is cut to this many characters and `...`, as ReadFile cuts. */
export const SNIPPET_LINE_MAX_CHARS = 2000;
/** The line that stands between two shown places that are not next to each other. */
export const SNIPPET_GAP_LINE = '...';

/** Lines `[from, from + count)` of a text (1-based); `count` 0 is the point before line `from` (a deletion). */
export interface LineSpan {
  from: number;
  count: number;
}

/** Numbered lines of a text around some places, within {@link SNIPPET_MAX_BYTES}. */
export interface LineSnippet {
  /** ReadFile's numbered lines, places that are not next to each other parted by {@link SNIPPET_GAP_LINE}. */
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
}

function linesOf(text: string): string[] {
  if (text.length === 0) return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function shown(number: number, line: string): string {
  const visible = showControlCharacters(line);
  const cut =
    visible.length > SNIPPET_LINE_MAX_CHARS ? `${visible.slice(0, SNIPPET_LINE_MAX_CHARS)}...` : visible;
  return `${numberedLine(number, cut)}\n`;
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
  const lines = linesOf(text);
  const context = options.context ?? SNIPPET_CONTEXT_LINES;
  const maxBytes = options.maxBytes ?? SNIPPET_MAX_BYTES;
  const windows: Array<{ from: number; to: number }> = [];
  for (const span of [...spans].sort((a, b) => a.from - b.from)) {
    const from = Math.max(1, span.from - context);
    const to = Math.min(lines.length, span.from + span.count - 1 + context);
    if (from > to) continue;
    const last = windows[windows.length - 1];
    // Places a few lines apart read better as one piece than as two with a gap line between them.
    if (last !== undefined && from <= last.to + context + 1) last.to = Math.max(last.to, to);
    else windows.push({ from, to });
  }
  const pieces: Array<{ number: number; text: string }> = [];
  windows.forEach((window, index) => {
    if (index > 0) pieces.push({ number: 0, text: `${SNIPPET_GAP_LINE}\n` });
    for (let number = window.from; number <= window.to; number++)
      pieces.push({ number, text: shown(number, lines[number - 1] ?? '') });
  });
  return options.keep === 'tail' ? keepTail(pieces, maxBytes) : keepHead(pieces, maxBytes);
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function lastNumber(pieces: ReadonlyArray<{ number: number }>): number {
  for (let index = pieces.length - 1; index >= 0; index--)
    if (pieces[index]!.number > 0) return pieces[index]!.number;
  return 0;
}

function keepHead(pieces: ReadonlyArray<{ number: number; text: string }>, maxBytes: number): LineSnippet {
  let output = '';
  let bytes = 0;
  for (const [index, piece] of pieces.entries()) {
    const size = byteLength(piece.text);
    if (bytes + size > maxBytes) {
      const rest = pieces.slice(index);
      const from = rest.find((candidate) => candidate.number > 0)?.number ?? 0;
      return from > 0 ? { output, unshown: { from, to: lastNumber(rest) } } : { output };
    }
    output += piece.text;
    bytes += size;
  }
  return { output };
}

function keepTail(pieces: ReadonlyArray<{ number: number; text: string }>, maxBytes: number): LineSnippet {
  let output = '';
  let bytes = 0;
  for (let index = pieces.length - 1; index >= 0; index--) {
    const piece = pieces[index]!;
    const size = byteLength(piece.text);
    if (bytes + size > maxBytes) {
      const rest = pieces.slice(0, index + 1);
      const from = rest.find((candidate) => candidate.number > 0)?.number ?? 0;
      return from > 0 ? { output, unshown: { from, to: lastNumber(rest) } } : { output };
    }
    output = piece.text + output;
    bytes += size;
  }
  return { output };
}

/** The sentence a write tool adds to its message when its snippet was cut. */
export function snippetCutSentence(unshown: { from: number; to: number }): string {
  return ` The output is cut at ${SNIPPET_MAX_BYTES} bytes: read lines ${unshown.from}-${unshown.to} for the rest.`;
}

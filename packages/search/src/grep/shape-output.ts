import { GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS } from '../limits.js';

/** Marks a line cut at {@link GREP_MAX_LINE_CHARS}. */
export const LINE_TRUNCATION_MARK = '[...truncated]';

/** A result line whose start was left out (a long line shown from near its match): it counts as cut. */
export class ClippedLine {
  constructor(readonly text: string) {}
}

/** One line of the results, as shown. */
export type ResultLine = string | ClippedLine;

/** Result lines known by their number, each made only when it is read (most are never shown). */
export interface ResultLines {
  readonly total: number;
  /** Up to `count` lines from index `start`; a line may need the file read again, so they may come asynchronously. */
  range(start: number, count: number): Iterable<ResultLine> | AsyncIterable<ResultLine>;
}

/** Lines already made, as {@link ResultLines}. */
export function listedLines(lines: readonly string[]): ResultLines {
  return { total: lines.length, range: (start, count) => lines.slice(start, start + count) };
}

/** One page of lines and the note that says how to get the next one. */
export interface Page {
  lines: Iterable<ResultLine> | AsyncIterable<ResultLine>;
  /** How many lines the page holds. */
  size: number;
  /** `Results truncated to ...` when lines remain after this page, else `null`. */
  note: string | null;
}

/** Skips `offset` lines, then keeps `headLimit` (0 or null: all) — docs/grep.md step 5. */
export function paginate(lines: ResultLines, offset: number, headLimit: number | null): Page {
  const rest = Math.max(0, lines.total - offset);
  if (headLimit === null || headLimit === 0 || rest <= headLimit) {
    return { lines: lines.range(offset, rest), size: rest, note: null };
  }
  return {
    lines: lines.range(offset, headLimit),
    size: headLimit,
    note: `Results truncated to ${headLimit} lines (total: ${lines.total}). Use offset=${offset + headLimit} to see more.`,
  };
}

/** The output text and whether anything was cut to fit it. */
export interface CappedOutput {
  text: string;
  truncated: boolean;
}

/**
 * Cuts lines at 2,000 characters (the marker included) and the whole output at `maxChars` (50,000 by default), at a line boundary
 * (docs/grep.md step 7). Lines after the first one that does not fit are never read, so never made.
 */
export async function capOutput(
  lines: Iterable<ResultLine> | AsyncIterable<ResultLine>,
  maxChars: number = GREP_MAX_OUTPUT_CHARS,
): Promise<CappedOutput> {
  let truncated = false;
  let length = 0;
  const kept: string[] = [];
  for await (const shown of lines) {
    let line = typeof shown === 'string' ? shown : shown.text;
    if (shown instanceof ClippedLine) truncated = true;
    if (line.length > GREP_MAX_LINE_CHARS) {
      // The cap holds the marker too, as ReadFile's does; never cut between the two halves of a surrogate pair (an
      // emoji): the text must stay well formed.
      const room = GREP_MAX_LINE_CHARS - LINE_TRUNCATION_MARK.length;
      const end = /[\uD800-\uDBFF]/.test(line.charAt(room - 1)) ? room - 1 : room;
      line = line.slice(0, end) + LINE_TRUNCATION_MARK;
      truncated = true;
    }
    const added = (kept.length > 0 ? 1 : 0) + line.length;
    if (length + added > maxChars) {
      truncated = true;
      break;
    }
    kept.push(line);
    length += added;
  }
  return { text: kept.join('\n'), truncated };
}

import type { OpenFile } from '@kimi-tools/core/fs';
import { SNIPPET_CONTEXT_LINES } from '@kimi-tools/core/toolkit';
import type { StreamFormat } from './stream-format.js';
import type { StreamTuning } from './stream-tuning.js';

/**
 * Lines around a match that its window takes in, so the diff and the snippet have their context (the default). The
 * snippet shows two places as one piece when at most three times its context lines lie between them (the context of
 * each and the gap it would rather fill than mark): windows of half that each side then touch and are merged, so the
 * streamed snippet shows the lines the in-memory one does.
 */
export const WINDOW_CONTEXT_LINES = Math.ceil((3 * SNIPPET_CONTEXT_LINES) / 2);

/** How far a window reaches for those lines; a longer line is cut at the match itself (the default). */
export const WINDOW_REACH_BYTES = 64 * 1024;

/**
 * A range of the file, `[start, end)`, and the 1-based line its first byte is on; `cutStart` / `cutEnd` when that
 * edge is inside a line (cut at the match), not at a line boundary or an end of the file.
 */
export interface WindowRange {
  start: number;
  end: number;
  firstLine: number;
  cutStart?: boolean;
  cutEnd?: boolean;
}

/** Reads `[from, to)` of the file. */
export async function readRange(handle: OpenFile, from: number, to: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(0, to - from));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, from + filled);
    if (bytesRead === 0) throw new Error(`The file ended at byte ${from + filled} while it was edited.`);
    filled += bytesRead;
  }
  return buffer;
}

/** Whether `bytes` holds `pattern` at `at`. */
function holds(bytes: Buffer, pattern: Uint8Array, at: number): boolean {
  return (
    at >= 0 &&
    at + pattern.length <= bytes.length &&
    bytes.compare(pattern, 0, pattern.length, at, at + pattern.length) === 0
  );
}

/**
 * Offsets up to `limit` just after each line break the model sees in `bytes` (`\n`, `\r\n`, a lone `\r`), on
 * code-unit boundaries counted from `origin`. A `\r` followed by `\n` starts no line: a window never starts or ends
 * between the two (the half left outside would be an extra line break). `bytes` must reach one unit past `limit`
 * unless it ends at the end of the file.
 */
function lineStartsIn(bytes: Buffer, format: StreamFormat, origin: number, limit: number): number[] {
  const { lf, cr, unit } = format.breaks;
  const starts: number[] = [];
  for (const pattern of [lf, cr]) {
    for (
      let at = bytes.indexOf(pattern);
      at !== -1 && at + unit <= limit;
      at = bytes.indexOf(pattern, at + 1)
    ) {
      if ((at - origin) % unit !== 0) continue;
      if (pattern === cr && holds(bytes, lf, at + unit)) continue;
      starts.push(at + unit);
    }
  }
  return starts.sort((a, b) => a - b);
}

// `reach` bytes before `offset` (at most to the first character), on a code-unit boundary.
function reachBack(format: StreamFormat, offset: number, reach: number): number {
  const from = Math.max(format.start, offset - reach);
  return from + ((offset - from) % format.breaks.unit);
}

/**
 * The window of one match `[matchStart, matchEnd)` on line `matchLine`: from the start of the line `contextLines`
 * lines before it to the end of the line as many lines after it, each side cut at the match when that line is longer
 * than `reachBytes` (a window always starts and ends on a character, never between a `\r` and its `\n`).
 */
export async function windowAround(
  handle: OpenFile,
  size: number,
  format: StreamFormat,
  match: { start: number; end: number; line: number },
  tuning: Pick<StreamTuning, 'windowReachBytes' | 'windowContextLines'>,
): Promise<WindowRange> {
  const { unit, lf, cr } = format.breaks;
  const backFrom = reachBack(format, match.start, tuning.windowReachBytes);
  // One unit past the match's start, to tell a lone `\r` just before it from half of a `\r\n`.
  const before = await readRange(handle, backFrom, Math.min(size, match.start + unit));
  const matchAt = match.start - backFrom;
  const startsBefore = lineStartsIn(before, format, format.start - backFrom, matchAt);
  const wanted = startsBefore.length - 1 - tuning.windowContextLines;
  let start: number;
  if (wanted >= 0) start = backFrom + (startsBefore[wanted] ?? 0);
  else if (backFrom === format.start) start = format.start;
  else start = backFrom + (startsBefore[0] ?? matchAt);
  // No line break within reach before the match: the window starts at the match, inside its line.
  const cutStart = wanted < 0 && backFrom !== format.start && startsBefore.length === 0;
  // The match's line as the scan counted it, less the line starts between the window's start and the match.
  const linesSkipped = startsBefore.filter((at) => backFrom + at > start).length;
  // A match starting at the `\n` of a `\r\n` takes the `\r` into a window cut there.
  if (cutStart && holds(before, lf, matchAt) && (await readRange(handle, start - unit, start)).equals(cr))
    start -= unit;
  const forwardTo = Math.min(size, match.end + tuning.windowReachBytes);
  const after = await readRange(handle, match.end, Math.min(size, forwardTo + unit));
  const startsAfter = lineStartsIn(after, format, format.start - match.end, forwardTo - match.end);
  let end: number;
  const last = startsAfter[tuning.windowContextLines];
  if (last !== undefined) end = match.end + last;
  else if (forwardTo === size) end = size;
  else end = match.end + (startsAfter.at(-1) ?? 0);
  const cutEnd = last === undefined && forwardTo !== size && startsAfter.length === 0;
  // A match ending in the `\r` of a `\r\n` is never cut there: the `\n` after it is a line break within reach.
  return { start, end, firstLine: match.line - linesSkipped, cutStart, cutEnd };
}

/** Bytes of the line break that ends just before `lineStart` (a line start after the first character). */
export async function breakBefore(
  handle: OpenFile,
  format: StreamFormat,
  lineStart: number,
): Promise<number> {
  const { unit, lf, cr } = format.breaks;
  const from = Math.max(format.start, lineStart - 2 * unit);
  const bytes = await readRange(handle, from, lineStart);
  return holds(bytes, lf, bytes.length - unit) && holds(bytes, cr, bytes.length - 2 * unit) ? 2 * unit : unit;
}

/** Windows sorted by start, overlapping or touching ones merged (their first line is the earliest). */
export function mergeWindows(windows: readonly WindowRange[]): WindowRange[] {
  const merged: WindowRange[] = [];
  for (const window of [...windows].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last === undefined || window.start > last.end) merged.push({ ...window });
    else if (window.end > last.end) {
      last.end = window.end;
      last.cutEnd = window.cutEnd;
    }
  }
  return merged;
}

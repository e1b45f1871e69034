import type { FileHandle } from 'node:fs/promises';
import { normalizeLineEndings } from '@kimi-tools/core/toolkit';
import { decodeIn, type StreamFormat } from './stream-format.js';

/** Lines around a match that its window takes in, so the diff and the snippet have their context. */
export const WINDOW_CONTEXT_LINES = 4;

/** How far a window reaches for those lines; a longer line is cut at the match itself. */
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
export async function readRange(handle: FileHandle, from: number, to: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(0, to - from));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, from + filled);
    if (bytesRead === 0) throw new Error(`The file ended at byte ${from + filled} while it was edited.`);
    filled += bytesRead;
  }
  return buffer;
}

/** Offsets just after each line break in `bytes`, on code-unit boundaries counted from `origin`. */
function lineStartsIn(bytes: Buffer, format: StreamFormat, origin: number): number[] {
  const { breaks } = format;
  const pattern = format.format.lineEnding === '\r' ? breaks.cr : breaks.lf;
  const starts: number[] = [];
  for (let at = bytes.indexOf(pattern); at !== -1; at = bytes.indexOf(pattern, at + 1)) {
    if ((at - origin) % breaks.unit === 0) starts.push(at + pattern.length);
  }
  return starts;
}

// Reads `length` bytes before `offset` (at most to the first character), on a code-unit boundary.
function reachBack(format: StreamFormat, offset: number): number {
  const from = Math.max(format.start, offset - WINDOW_REACH_BYTES);
  return from + ((offset - from) % format.breaks.unit);
}

/**
 * The window of one match `[matchStart, matchEnd)` on line `matchLine`: from the start of the line
 * {@link WINDOW_CONTEXT_LINES} lines before it to the end of the line as many lines after it, each side cut at the
 * match when that line is longer than {@link WINDOW_REACH_BYTES} (a window always starts and ends on a character).
 */
export async function windowAround(
  handle: FileHandle,
  size: number,
  format: StreamFormat,
  match: { start: number; end: number; line: number },
): Promise<WindowRange> {
  const backFrom = reachBack(format, match.start);
  const before = await readRange(handle, backFrom, match.start);
  const startsBefore = lineStartsIn(before, format, format.start - backFrom);
  const wanted = startsBefore.length - 1 - WINDOW_CONTEXT_LINES;
  let start: number;
  if (wanted >= 0) start = backFrom + (startsBefore[wanted] ?? 0);
  else if (backFrom === format.start) start = format.start;
  else start = backFrom + (startsBefore[0] ?? match.start - backFrom);
  // No line break within reach before the match: the window starts at the match, inside its line.
  const cutStart = wanted < 0 && backFrom !== format.start && startsBefore.length === 0;
  const forwardTo = Math.min(size, match.end + WINDOW_REACH_BYTES);
  const after = await readRange(handle, match.end, forwardTo);
  const startsAfter = lineStartsIn(after, format, format.start - match.end);
  let end: number;
  const last = startsAfter[WINDOW_CONTEXT_LINES];
  if (last !== undefined) end = match.end + last;
  else if (forwardTo === size) end = size;
  else end = match.end + (startsAfter.at(-1) ?? 0);
  const cutEnd = last === undefined && forwardTo !== size && startsAfter.length === 0;
  // Counted as the scan counted the match's line: every \n, \r\n and lone \r of the text the model sees.
  const skipped = normalizeLineEndings(decodeIn(before.subarray(start - backFrom), format.format));
  let linesSkipped = 0;
  for (let at = skipped.indexOf('\n'); at !== -1; at = skipped.indexOf('\n', at + 1)) linesSkipped++;
  return { start, end, firstLine: match.line - linesSkipped, cutStart, cutEnd };
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

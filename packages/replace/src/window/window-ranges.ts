import type { OpenFile } from '@kimi-tools/core/fs';
import { readHandleRange, SNIPPET_CONTEXT_LINES, type LoggedEdit } from '@kimi-tools/core/toolkit';
import type { EditSpec } from '../match/types.js';
import type { WindowFormat } from './file-format.js';
import { scanForEdits } from './scan-needles.js';
import type { FileToEdit } from './window-text.js';

/**
 * Lines a window takes in around what the edits may change, so the diff and the snippet have their context (the
 * default). The snippet shows two places as one piece when at most three times its context lines lie between them
 * (the context of each and the gap it would rather fill than mark): windows of half that each side then touch and
 * are merged, so the snippet of windows shows the lines the snippet of the whole file does.
 */
export const WINDOW_CONTEXT_LINES = Math.ceil((3 * SNIPPET_CONTEXT_LINES) / 2);

/** How far a window reaches for its lines beyond what the edits need; a longer line is cut (the default). */
export const WINDOW_REACH_BYTES = 64 * 1024;

/**
 * A range of the file, `[start, end)`, and the 1-based line its first byte is on; `cutStart` / `cutEnd` when that
 * edge is inside a line, not at a line boundary or an end of the file.
 */
export interface WindowRange {
  start: number;
  end: number;
  firstLine: number;
  cutStart: boolean;
  cutEnd: boolean;
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
 * Whether a line starts at `at` of `bytes`, just after a line break the model sees (`\n`, `\r\n`, a lone `\r`) on a
 * code-unit boundary counted from `origin`: a `\r` followed by `\n` starts no line, so a window never starts or ends
 * between the two (the half left outside would be an extra line break).
 */
function startsLineAt(
  bytes: Buffer,
  format: WindowFormat,
  origin: number,
  breakAt: number,
  isLf: boolean,
): boolean {
  const { lf, unit } = format.breaks;
  if ((breakAt - origin) % unit !== 0) return false;
  return isLf || !holds(bytes, lf, breakAt + unit);
}

/**
 * The last `count` line starts of `bytes` at or before `at` (ascending), found backwards from it, so a window costs
 * the lines it takes, not its reach. `bytes` must hold one unit past `at`.
 */
function lineStartsBefore(
  bytes: Buffer,
  format: WindowFormat,
  origin: number,
  at: number,
  count: number,
): number[] {
  const { lf, cr, unit } = format.breaks;
  const back = (pattern: Uint8Array, from: number) => (from < 0 ? -1 : bytes.lastIndexOf(pattern, from));
  const starts: number[] = [];
  let lfAt = back(lf, at - unit);
  let crAt = back(cr, at - unit);
  while (starts.length < count && (lfAt !== -1 || crAt !== -1)) {
    const isLf = lfAt > crAt;
    const breakAt = isLf ? lfAt : crAt;
    if (isLf) lfAt = back(lf, breakAt - 1);
    else crAt = back(cr, breakAt - 1);
    if (startsLineAt(bytes, format, origin, breakAt, isLf)) starts.unshift(breakAt + unit);
  }
  return starts;
}

/** The first `count` line starts of `bytes` after its first byte and up to `limit`; `bytes` holds one unit past it. */
function lineStartsAfter(
  bytes: Buffer,
  format: WindowFormat,
  origin: number,
  limit: number,
  count: number,
): number[] {
  const { lf, cr, unit } = format.breaks;
  const starts: number[] = [];
  let lfAt = bytes.indexOf(lf);
  let crAt = bytes.indexOf(cr);
  while (starts.length < count) {
    const isLf = lfAt !== -1 && (crAt === -1 || lfAt < crAt);
    const breakAt = isLf ? lfAt : crAt;
    if (breakAt === -1 || breakAt + unit > limit) break;
    if (isLf) lfAt = bytes.indexOf(lf, breakAt + 1);
    else crAt = bytes.indexOf(cr, breakAt + 1);
    if (startsLineAt(bytes, format, origin, breakAt, isLf)) starts.push(breakAt + unit);
  }
  return starts;
}

/** Whether the code unit at `at` of `bytes` continues a character (a UTF-8 trail byte, a UTF-16 low surrogate). */
function continuesCharacter(bytes: Buffer, format: WindowFormat, at: number): boolean {
  const { encoding } = format.format;
  if (encoding === 'utf-8') return at < bytes.length && ((bytes[at] ?? 0) & 0xc0) === 0x80;
  if (!encoding.startsWith('utf-16') || at + 2 > bytes.length) return false;
  const unit = encoding === 'utf-16le' ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at);
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Where a window cut at offset `at` of `bytes` starts: on a character, and past the `\n` of a `\r\n` cut in two. */
function cutFrom(bytes: Buffer, format: WindowFormat, at: number): number {
  const { unit, lf, cr } = format.breaks;
  if (holds(bytes, lf, at) && holds(bytes, cr, at - unit)) return at + unit;
  while (continuesCharacter(bytes, format, at)) at += unit;
  return at;
}

/** Where a window cut at offset `at` of `bytes` ends: on a character. */
function cutTo(bytes: Buffer, format: WindowFormat, at: number): number {
  const { unit } = format.breaks;
  while (at > 0 && continuesCharacter(bytes, format, at)) at -= unit;
  return at;
}

/** Lines and bytes a window takes in each side of a hit: what the edits may change there, and the context. */
export interface WindowReach {
  lines: number;
  bytes: number;
}

/** Bytes read at once around hits: the hits of a scan come in order, and most windows are then read from memory. */
const READ_AHEAD_BYTES = 256 * 1024;

/** Finds the windows of hits in a file (in the order of the file, for its reads to serve the next hits). */
export class WindowFinder {
  private cacheStart = 0;
  private cache: Buffer = Buffer.alloc(0);

  constructor(
    private readonly handle: OpenFile,
    private readonly size: number,
    private readonly format: WindowFormat,
  ) {}

  /**
   * The window of one hit `[start, end)` on line `line`: from the start of the line `reach.lines` lines before it to
   * the end of the line as many lines after it. When those lines reach further than `reach.bytes`, that edge is cut
   * `reach.bytes` from the hit instead, inside a line, on a character (never between a `\r` and its `\n`).
   */
  async around(hit: { start: number; end: number; line: number }, reach: WindowReach): Promise<WindowRange> {
    const { format, size } = this;
    const { unit } = format.breaks;
    // One unit before the reach, to tell whether its edge is a line start.
    const backFrom = Math.max(format.start, hit.start - reach.bytes - unit);
    const aligned = backFrom + ((hit.start - backFrom) % unit);
    const before = await this.read(aligned, Math.min(size, hit.start + unit));
    const hitAt = hit.start - aligned;
    const origin = format.start - aligned;
    const startsBefore = lineStartsBefore(before, format, origin, hitAt, reach.lines + 1);
    let start: number;
    if (startsBefore.length > reach.lines) start = aligned + startsBefore[0]!;
    else if (aligned === format.start) start = format.start;
    else start = aligned + cutFrom(before, format, Math.min(unit, hitAt));
    const cutStart = start !== format.start && !startsBefore.includes(start - aligned);
    // The hit's line as the scan counted it, less the line starts between the window's start and the hit.
    const linesSkipped = startsBefore.filter((at) => aligned + at > start).length;
    // On a code unit, as the hit's end is.
    const forwardTo = Math.min(size, hit.end + reach.bytes - (reach.bytes % unit));
    const limit = forwardTo - hit.end;
    // Two units past the reach: a line that starts just past it (after the `\n` of a `\r\n` it cuts) is seen.
    const after = await this.read(hit.end, Math.min(size, forwardTo + 2 * unit));
    const startsAfter = lineStartsAfter(
      after,
      format,
      format.start - hit.end,
      Math.min(after.length, limit + unit),
      reach.lines + 1,
    );
    const last = startsAfter[reach.lines];
    const edge = startsAfter.at(-1);
    let end: number;
    if (last !== undefined) end = hit.end + last;
    else if (forwardTo === size) end = size;
    else end = hit.end + (edge !== undefined && edge >= limit ? edge : cutTo(after, format, limit));
    const cutEnd = end !== size && !startsAfter.includes(end - hit.end);
    return { start, end, firstLine: hit.line - linesSkipped, cutStart, cutEnd };
  }

  /** `[from, to)` of the file, from the bytes last read when they hold it. */
  private async read(from: number, to: number): Promise<Buffer> {
    if (from < this.cacheStart || to > this.cacheStart + this.cache.length) {
      this.cache = await readHandleRange(
        this.handle,
        from,
        Math.min(this.size, Math.max(to, from + READ_AHEAD_BYTES)),
      );
      this.cacheStart = from;
    }
    return this.cache.subarray(from - this.cacheStart, to - this.cacheStart);
  }
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

/**
 * The windows around every place the edits could change (docs/str-replace-file.md#files-read-in-windows): the hits of
 * one scan of the file, each with the lines its needle's text reaches, in file order, overlapping or touching ones
 * merged. Refused when the file is not text in its format, or a needle has more hits than the scan keeps (the windows
 * would be more than one call may hold).
 */
export async function windowsOfEdits(
  file: FileToEdit,
  format: WindowFormat,
  edits: readonly EditSpec[],
  log: readonly LoggedEdit[],
): Promise<WindowRange[] | { refused: 'not-text' | 'too-many-places' }> {
  const { needles, scan } = await scanForEdits(file, format, edits, log);
  if (!scan.text) return { refused: 'not-text' };
  const { hits } = scan;
  if (hits.some((found) => found.count > found.starts.length)) return { refused: 'too-many-places' };
  const all = needles.flatMap(({ bytes, reach }, index) =>
    hits[index]!.starts.map((start, hit) => ({
      start,
      end: start + bytes.length,
      line: hits[index]!.lines[hit]!,
      reach,
    })),
  );
  const finder = new WindowFinder(file.handle, file.size, format);
  const ranges: WindowRange[] = [];
  for (const hit of all.sort((a, b) => a.start - b.start)) ranges.push(await finder.around(hit, hit.reach));
  return mergeWindows(ranges);
}

import type { OpenFile } from '@kimi-tools/core/fs';
import { createTextStreamCheck, type LoggedEdit, type TextStreamCheck } from '@kimi-tools/core/toolkit';
import { MAX_REPLACEMENTS } from '../limits.js';
import type { EditSpec } from '../match/types.js';
import { needlesOf, type Needle } from './edit-needles.js';
import type { WindowFormat } from './file-format.js';
import type { FileToEdit } from './window-text.js';

/** The bytes of the line-break characters of a file's encoding, and its code unit size. */
export interface BreakBytes {
  /** 1, or 2 for UTF-16: matches and line breaks only count at offsets that are multiples of it (after the BOM). */
  unit: number;
  lf: Uint8Array;
  cr: Uint8Array;
}

/**
 * Occurrences of `pattern` in `buffer[from, to)` at offsets that are multiples of its length counted from buffer
 * offset `origin`. A plain loop over the native search: a line break every 80 bytes of a 4 GiB file is 50 million
 * of them, where a generator's per-item cost showed in the profile.
 */
function countAligned(buffer: Buffer, pattern: Uint8Array, from: number, to: number, origin: number): number {
  const unit = pattern.length;
  let count = 0;
  for (let at = buffer.indexOf(pattern, from); at !== -1 && at < to; at = buffer.indexOf(pattern, at + 1)) {
    if (unit === 1 || (at - origin) % unit === 0) count++;
  }
  return count;
}

/** `\r` units in `buffer[from, to)` followed by a `\n` unit (each pair is one line break, counted at its `\n`). */
function countCrLf(buffer: Buffer, bytes: BreakBytes, from: number, to: number, origin: number): number {
  const { cr, lf, unit } = bytes;
  let count = 0;
  for (let at = buffer.indexOf(cr, from); at !== -1 && at < to; at = buffer.indexOf(cr, at + 1)) {
    if (unit !== 1 && (at - origin) % unit !== 0) continue;
    const next = at + unit;
    if (next + unit <= buffer.length && buffer.compare(lf, 0, unit, next, next + unit) === 0) count++;
  }
  return count;
}

/**
 * Counts the line breaks the model sees (`\n`, `\r\n` and a lone `\r` each end one line) in a file read buffer by
 * buffer, up to offsets that only grow. The unit after each counted range must be in the buffer (or the range end at
 * the end of the file), so a `\r` is never counted before it is known whether a `\n` follows it.
 */
class LineBreakCounter {
  /** Line breaks before `countedTo`. */
  breaks = 0;
  /** File offset counted up to. */
  countedTo: number;

  /** `start`: the file offset of the first character (after the BOM). */
  constructor(
    private readonly bytes: BreakBytes,
    private readonly start: number,
  ) {
    this.countedTo = start;
  }

  /** Counts up to file offset `to`; `buffer` starts at file offset `bufferStart` and holds `[countedTo, to]`. */
  advance(buffer: Buffer, bufferStart: number, to: number): void {
    if (to <= this.countedTo) return;
    const from = this.countedTo - bufferStart;
    const end = to - bufferStart;
    const origin = this.start - bufferStart;
    const { lf, cr } = this.bytes;
    this.breaks += countAligned(buffer, lf, from, end, origin);
    // Most files have no \r at all: one native search says so for the whole range.
    const crs = countAligned(buffer, cr, from, end, origin);
    if (crs > 0) this.breaks += crs - countCrLf(buffer, this.bytes, from, end, origin);
    this.countedTo = to;
  }
}

/** Bytes read at a time while scanning; large enough that the per-read cost vanishes, small enough to stay bounded. */
export const SCAN_CHUNK_BYTES = 8 << 20;

/** How {@link scanNeedles} reads. */
export interface ScanOptions {
  /** File offset of the first character (the BOM's length). */
  start: number;
  /** Line-break bytes and code unit of the encoding. */
  breaks: BreakBytes;
  /** Hits kept of each needle; past them a needle is only counted. */
  keep: number;
  /** Checks every byte of the file on the way: the file must be text in its encoding. */
  check: TextStreamCheck;
  /** Bytes read at a time ({@link SCAN_CHUNK_BYTES} in the tool). */
  chunkBytes: number;
  /** Read into, when given: at least {@link scanBufferBytes} long. */
  buffer?: Buffer | undefined;
  /** Checked between chunks: an aborted scan stops with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Where one needle occurs: the first `keep` offsets with their 1-based lines, and how many times in all. */
export interface NeedleHits {
  starts: number[];
  lines: number[];
  count: number;
}

/** What a scan found: the hits of each needle, in the needles' order, or that the file is not text. */
type ScanResult = { text: true; hits: NeedleHits[] } | { text: false };

/** Bytes {@link scanNeedles} reads into: a chunk after the tail of the one before, which may begin a needle. */
function scanBufferBytes(needles: readonly Uint8Array[], unit: number, chunkBytes: number): number {
  const carry = Math.max(unit, ...needles.map((needle) => needle.length - 1));
  return Math.max(chunkBytes, carry * 2) + carry + unit;
}

/**
 * Finds every occurrence of each needle (overlapping ones too) in the file open on `handle` (`size` bytes), in one
 * read of the file in `chunkBytes` chunks, carrying the longest needle's length less one byte over so an occurrence
 * across two chunks is found once, and checking on the way that the whole file is text. Only occurrences at
 * code-unit boundaries count. Lines are counted only as far as the last kept hit.
 */
export async function scanNeedles(
  handle: OpenFile,
  size: number,
  needles: readonly Uint8Array[],
  options: ScanOptions,
): Promise<ScanResult> {
  const { unit } = options.breaks;
  const carry = Math.max(unit, ...needles.map((needle) => needle.length - 1));
  const buffer = options.buffer ?? Buffer.allocUnsafe(scanBufferBytes(needles, unit, options.chunkBytes));
  const counter = new LineBreakCounter(options.breaks, options.start);
  const hits: NeedleHits[] = needles.map(() => ({ starts: [], lines: [], count: 0 }));
  // File offset where each needle's next occurrence may start.
  const searchFrom = needles.map(() => options.start);
  let bufferStart = options.start;
  let filled = 0;
  while (bufferStart + filled < size) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      Math.min(buffer.length - filled, size - bufferStart - filled),
      bufferStart + filled,
    );
    if (bytesRead === 0) break;
    const last = bufferStart + filled + bytesRead >= size;
    if (!options.check.push(buffer.subarray(filled, filled + bytesRead), last)) return { text: false };
    filled += bytesRead;
    const view = buffer.subarray(0, filled);
    // Lines only grow: the hits of all needles in this view are counted in the order of their offsets.
    const found: Array<{ needle: number; offset: number }> = [];
    for (const [index, needle] of needles.entries()) {
      for (
        let at = view.indexOf(needle, searchFrom[index]! - bufferStart);
        at !== -1;
        at = view.indexOf(needle, at + 1)
      ) {
        const offset = bufferStart + at;
        searchFrom[index] = offset + 1;
        if ((offset - options.start) % unit !== 0) continue;
        const needleHits = hits[index]!;
        if (++needleHits.count <= options.keep) found.push({ needle: index, offset });
      }
    }
    for (const { needle, offset } of found.sort((a, b) => a.offset - b.offset)) {
      counter.advance(view, bufferStart, offset);
      hits[needle]!.starts.push(offset);
      hits[needle]!.lines.push(counter.breaks + 1);
    }
    if (bufferStart + filled >= size) break;
    // Keep the tail that may begin an occurrence completed by the next chunk; nothing before it can. On a code-unit
    // boundary: a read may end inside a UTF-16 unit, and the line count must not end there (a \r\n cut in half would
    // count as two breaks).
    let keepFrom = Math.max(filled - carry, 0);
    keepFrom -= (bufferStart + keepFrom - options.start) % unit;
    if (hits.some((needleHits) => needleHits.starts.length < options.keep))
      counter.advance(view, bufferStart, bufferStart + keepFrom);
    buffer.copy(buffer, 0, keepFrom, filled);
    bufferStart += keepFrom;
    filled -= keepFrom;
    for (const [index, needle] of needles.entries())
      searchFrom[index] = Math.max(searchFrom[index]!, bufferStart + filled - needle.length + 1);
  }
  // Shorter than its stamp: the file is changing under the edit, and its end was never checked.
  return bufferStart + filled >= size ? { text: true, hits } : { text: false };
}

/**
 * The one read of a file read in windows (docs/str-replace-file.md#files-read-in-windows): checks it is text in its
 * format and finds every place each edit could match, and each text of the session's log a replay may look for.
 */
export async function scanForEdits(
  file: FileToEdit,
  format: WindowFormat,
  edits: readonly EditSpec[],
  log: readonly LoggedEdit[],
): Promise<{ needles: Needle[]; scan: ScanResult }> {
  const needles = needlesOf(edits, log, format, file.tuning);
  const bytes = needles.map((needle) => needle.bytes);
  // The call's one read buffer: the copy of the write reads through it too, so a chunk is held once, not twice (the
  // scan's left to the garbage collector while the copy fills its own).
  file.buffer = Buffer.allocUnsafe(scanBufferBytes(bytes, format.breaks.unit, file.tuning.chunkBytes));
  const scan = await scanNeedles(file.handle, file.size, bytes, {
    start: format.start,
    breaks: format.breaks,
    // One more than the replacements a call may make, so that `replace_all` past its budget is still seen.
    keep: MAX_REPLACEMENTS + 1,
    check: createTextStreamCheck(format.format),
    chunkBytes: file.tuning.chunkBytes,
    buffer: file.buffer,
    signal: file.signal,
  });
  return { needles, scan };
}

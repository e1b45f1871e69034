import type { OpenFile } from '@kimi-tools/core/fs';
import { LineBreakCounter, type BreakBytes } from './line-breaks.js';
import type { TextCheck } from './text-check.js';

/** Bytes read at a time while scanning; large enough that the per-read cost vanishes, small enough to stay bounded. */
export const SCAN_CHUNK_BYTES = 8 << 20;

/** How {@link scanOccurrences} searches. */
export interface ScanOptions {
  /** File offset of the first character (the BOM's length). */
  start: number;
  /** Line-break bytes and code unit of the encoding. */
  breaks: BreakBytes;
  /** Overlapping occurrences count too (what makes an edit ambiguous); `replace_all` counts non-overlapping ones. */
  overlapping: boolean;
  /** Stop at the first occurrence (`match: 'first'`). */
  firstOnly: boolean;
  /** Occurrences whose offsets and lines are kept (the rest are only counted). */
  keep: number;
  /** Stop counting past this many occurrences (the replacement budget of `replace_all`). */
  maxCount: number;
  /** Checks every byte of the file on the way (the scan then reads to the end even once it stops searching). */
  check?: TextCheck;
  /** Bytes read at a time ({@link SCAN_CHUNK_BYTES} in the tool). */
  chunkBytes: number;
  /** Checked between chunks: an aborted scan stops with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Where a byte string occurs in a file: the first `keep` offsets with their 1-based lines, and how many in all. */
export interface Occurrences {
  starts: number[];
  lines: number[];
  /** All occurrences, or `maxCount + 1` when the scan stopped there. */
  count: number;
  /** False when the `check` found the file is not text (the occurrences are then not to be used). */
  text: boolean;
  /** Whether a 0x0D byte occurs in the file (it may hold a `\r`); known only with a `check`, false without. */
  hasCr: boolean;
}

/**
 * Finds `needle` in the file open on `handle` (`size` bytes) by reading it in `chunkBytes` chunks, with
 * `needle.length - 1` bytes (at least one unit) carried over so an occurrence across two chunks is found once. Only
 * occurrences at code-unit boundaries count. Lines are counted only as far as the last kept occurrence.
 */
export async function scanOccurrences(
  handle: OpenFile,
  size: number,
  needle: Uint8Array,
  options: ScanOptions,
): Promise<Occurrences> {
  const { unit } = options.breaks;
  const carry = Math.max(needle.length - 1, unit);
  const buffer = Buffer.allocUnsafe(Math.max(options.chunkBytes, carry * 2) + carry + unit);
  const counter = new LineBreakCounter(options.breaks, options.start);
  const result: Occurrences = { starts: [], lines: [], count: 0, text: true, hasCr: false };
  const { check } = options;
  let bufferStart = options.start;
  let filled = 0;
  // File offset where the next occurrence may start.
  let searchFrom = options.start;
  let searching = true;
  while (bufferStart + filled < size) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      Math.min(buffer.length - filled, size - bufferStart - filled),
      bufferStart + filled,
    );
    if (bytesRead === 0) break;
    if (check) {
      const read = buffer.subarray(filled, filled + bytesRead);
      if (!check.push(read)) return { ...result, text: false };
      // Any 0x0D byte: a CR unit of UTF-16 may be cut between two reads, and a false alarm only costs a check.
      result.hasCr ||= read.indexOf(0x0d) !== -1;
    }
    filled += bytesRead;
    const view = buffer.subarray(0, filled);
    if (searching) searching = search(view, bufferStart);
    if (!searching && !check) return result;
    const end = bufferStart + filled;
    if (end >= size) break;
    // Keep the tail that may begin an occurrence completed by the next chunk; nothing before it can.
    // On a code-unit boundary: a read may end inside a UTF-16 unit, and the line count must not end there (a \r\n
    // cut in half would count as two breaks).
    let keepFrom = Math.max(filled - carry, 0);
    keepFrom -= (bufferStart + keepFrom - options.start) % unit;
    if (searching && result.starts.length < options.keep)
      counter.advance(view, bufferStart, bufferStart + keepFrom);
    buffer.copy(buffer, 0, keepFrom, filled);
    bufferStart += keepFrom;
    filled -= keepFrom;
    searchFrom = Math.max(searchFrom, bufferStart + filled - needle.length + 1);
  }
  if (check && !check.end()) result.text = false;
  return result;

  // Records the occurrences in `view` (at file offset `viewStart`); false once the scan has found enough.
  function search(view: Buffer, viewStart: number): boolean {
    for (
      let at = view.indexOf(needle, searchFrom - viewStart);
      at !== -1;
      at = view.indexOf(needle, searchFrom - viewStart)
    ) {
      const offset = viewStart + at;
      if ((offset - options.start) % unit !== 0) {
        searchFrom = offset + 1;
        continue;
      }
      result.count++;
      if (result.count > options.maxCount) return false;
      if (result.starts.length < options.keep) {
        counter.advance(view, viewStart, offset);
        result.starts.push(offset);
        result.lines.push(counter.breaks + 1);
      }
      if (options.firstOnly) return false;
      searchFrom = offset + (options.overlapping ? unit : needle.length);
    }
    return true;
  }
}

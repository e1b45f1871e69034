import type { FileHandle } from 'node:fs/promises';
import { LineBreakCounter, type BreakBytes } from './line-breaks.js';

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
}

/** Where a byte string occurs in a file: the first `keep` offsets with their 1-based lines, and how many in all. */
export interface Occurrences {
  starts: number[];
  lines: number[];
  /** All occurrences, or `maxCount + 1` when the scan stopped there. */
  count: number;
}

/**
 * Finds `needle` in the file open on `handle` (`size` bytes) by reading it in {@link SCAN_CHUNK_BYTES} chunks, with
 * `needle.length - 1` bytes (at least one unit) carried over so an occurrence across two chunks is found once. Only
 * occurrences at code-unit boundaries count. Lines are counted only as far as the last kept occurrence.
 */
export async function scanOccurrences(
  handle: FileHandle,
  size: number,
  needle: Uint8Array,
  options: ScanOptions,
): Promise<Occurrences> {
  const { unit } = options.breaks;
  const carry = Math.max(needle.length - 1, unit);
  const buffer = Buffer.allocUnsafe(Math.max(SCAN_CHUNK_BYTES, carry * 2) + carry);
  const counter = new LineBreakCounter(options.breaks, options.start);
  const result: Occurrences = { starts: [], lines: [], count: 0 };
  let bufferStart = options.start;
  let filled = 0;
  // File offset where the next occurrence may start.
  let searchFrom = options.start;
  while (bufferStart + filled < size) {
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      Math.min(buffer.length - filled, size - bufferStart - filled),
      bufferStart + filled,
    );
    if (bytesRead === 0) break;
    filled += bytesRead;
    const view = buffer.subarray(0, filled);
    for (
      let at = view.indexOf(needle, searchFrom - bufferStart);
      at !== -1;
      at = view.indexOf(needle, searchFrom - bufferStart)
    ) {
      const offset = bufferStart + at;
      if ((offset - options.start) % unit !== 0) {
        searchFrom = offset + 1;
        continue;
      }
      result.count++;
      if (result.count > options.maxCount) return result;
      if (result.starts.length < options.keep) {
        counter.advance(view, bufferStart, offset);
        result.starts.push(offset);
        result.lines.push(counter.breaks + 1);
      }
      if (options.firstOnly) return result;
      searchFrom = offset + (options.overlapping ? unit : needle.length);
    }
    const end = bufferStart + filled;
    if (end >= size) break;
    // Keep the tail that may begin an occurrence completed by the next chunk; nothing before it can.
    const keepFrom = Math.max(filled - carry, 0);
    if (result.starts.length < options.keep) counter.advance(view, bufferStart, bufferStart + keepFrom);
    buffer.copy(buffer, 0, keepFrom, filled);
    bufferStart += keepFrom;
    filled -= keepFrom;
    searchFrom = Math.max(searchFrom, bufferStart + filled - needle.length + 1);
  }
  return result;
}

import type { OpenFile } from '../fs/file-system.js';
import { ABORTED_MESSAGE } from '../errors.js';
import { createStreamDecoder } from './codec-stream.js';
import type { TextEncoding } from './codec-types.js';
import { byteChunk, stringChunk, type LineChunk } from './line-chunk.js';
import type { LineFeedCounter } from './line-feed-counter.js';
import { bomLength, startsWithBom } from './bom.js';
import { containsNulByte } from './encoding-bytes.js';
import { ChunkReader } from './chunk-reader.js';
import { createUtf8StreamCheck } from './utf8-stream-check.js';
import { giveBackLineFeedCounter, takeLineFeedCounter } from './reused-line-feed-counter.js';

/** A line start: the 1-based number of a line and the byte offset where it begins. */
export interface LinePosition {
  line: number;
  offset: number;
}

/**
 * Default minimum distance in bytes between two checkpoints. Big files are counted a 1 MiB read at a time with one
 * checkpoint per read at most, so this gives one per MiB: 1 GiB is indexed in about a thousand entries, and a
 * repeated read rescans at most about a MiB before its first line.
 */
export const LINE_CHECKPOINT_BYTES = 1 << 19;

/** One line delivered by {@link scanLines}. */
export interface ScannedLine {
  /** 1-based line number. */
  number: number;
  /** Decoded text without its line break; only the beginning of the line when `cut`. */
  text: string;
  /** Whether the line ended with a break (`\n`, `\r\n` or `\r`); only a file's last line can lack one. */
  terminated: boolean;
  /** The line was longer than `maxLineChars` code points and `text` holds just its first part (at least that many + 1). */
  cut: boolean;
}

/** Options of {@link scanLines}. */
export interface LineScanOptions {
  /** The file's encoding (e.g. from `detectTextEncoding` on its head). */
  encoding: TextEncoding;
  /** Byte offset where the scan stops: the file's size when it was opened. */
  end: number;
  /** A line start to begin at, e.g. a line-index checkpoint (default: line 1 at offset 0, BOM skipped). */
  start?: LinePosition;
  /** First line handed to `onLine` (default: the start line). */
  firstLine?: number;
  /** Receives lines from `firstLine` on, in order; return `false` to stop receiving. */
  onLine?: (line: ScannedLine) => boolean;
  /** After `onLine` stopped, keep counting lines to `end` so the total is known (default false). */
  countToEnd?: boolean;
  /** Sees every byte read, in file order (e.g. to hash the content while scanning). */
  onBytes?: (bytes: Uint8Array) => void;
  /** Looks for a `00` byte in every byte read, reported as `nulByte` (default false). */
  findNulByte?: boolean;
  /**
   * Checks that the bytes read are strict UTF-8 (as `new TextDecoder('utf-8', { fatal: true })` would), reported as
   * `notUtf8` (default false). Chunks the counter found plain ASCII are not looked at again.
   */
  checkUtf8?: boolean;
  /** Receives line starts at least `checkpointBytes` apart, to build a line index. */
  onCheckpoint?: (position: LinePosition) => void;
  /** Minimum distance between checkpoints (default {@link LINE_CHECKPOINT_BYTES}). */
  checkpointBytes?: number;
  /** Code points of a delivered line kept at most (plus one, so a longer line can be told); default 2000. */
  maxLineChars?: number;
  /** Read size (default 1 MiB). */
  chunkBytes?: number;
  /** Stops the scan with an `AbortError`. */
  signal?: AbortSignal;
}

/** What {@link scanLines} found out. */
export interface LineScanResult {
  /** Lines in the file when the scan reached `end`; `undefined` when it stopped earlier. */
  totalLines: number | undefined;
  /** Byte offset the scan read up to. */
  bytesScanned: number;
  /** With `findNulByte`: whether a byte read was `00`. */
  nulByte: boolean;
  /**
   * With `checkUtf8`: the bytes read are not UTF-8. A character cut off by `end` makes them invalid; one cut off where
   * the scan stopped early does not.
   */
  notUtf8: boolean;
}

/** Scans shorter than this do not bother with the WebAssembly counter. */
const BULK_COUNT_MIN_BYTES = 4 << 20;

/** Default read size: large enough that the thread pool hand-offs stay a small part of a read. */
const READ_CHUNK_BYTES = 1 << 20;

/**
 * Read size once line feeds are counted in bulk. Each read is a hand-off to the thread pool and back; over the 1 GiB
 * bench log, 4 MiB reads took a Node process counting every line from 340 to 261 ms (1 MiB: 340, 2 MiB: 275, 8 MiB:
 * 257), for 12 MiB of read buffers instead of 3 (three buffers then; four now, see below). Each read is still split
 * in pieces of the scan's read size, so the line index keeps a checkpoint about as often.
 */
const BULK_READ_CHUNK_BYTES = 4 << 20;

/** Reads running on the thread pool while a chunk is split (see {@link ChunkReader}). */
const READS_AHEAD = 2;

/**
 * Reads running ahead once line feeds are counted in bulk. Over the 1 GiB bench log on two cores, three 4 MiB reads
 * in flight took a whole ReadFile process from 345 to 320 ms (medians of 8; four: 330 ms), for one 4 MiB buffer more
 * (16 MiB in all).
 */
const BULK_READS_AHEAD = 3;

/** Encodings where `\n` and `\r` are always the single bytes 0x0A / 0x0D, so raw bytes can be split directly. */
export function isAsciiCompatible(encoding: string): boolean {
  return !/^(utf-?16|utf-?32|ucs-?2|ucs-?4|utf-?7)/i.test(encoding);
}

function abortError(): Error {
  const error = new Error(ABORTED_MESSAGE);
  error.name = 'AbortError';
  return error;
}

/**
 * Streams a file's lines with bounded memory (a few chunks plus the delivered lines' prefixes), splitting on `\n`,
 * `\r\n` and `\r` — a `\r\n` split across two reads is still one break. ASCII-compatible encodings are split on raw
 * bytes and only delivered lines are decoded; UTF-16 is decoded as it streams. Lines are never held whole: a line of
 * any length costs at most `maxLineChars` code points.
 */
export async function scanLines(file: OpenFile, options: LineScanOptions): Promise<LineScanResult> {
  const byteMode = isAsciiCompatible(options.encoding.encoding);
  const unitBytes = byteMode ? 1 : /^utf-?32/i.test(options.encoding.encoding) ? 4 : 2;
  const startOffset = options.start?.offset ?? 0;
  // At least 4 bytes, so that the first read holds a whole BOM.
  const chunkBytes = Math.max(4, Math.min(options.chunkBytes ?? READ_CHUNK_BYTES, options.end - startOffset));
  // Long runs of lines to skip or count: read into WebAssembly memory and count line feeds with SIMD. A scan that
  // counts to the end makes it at once; one that only delivers lines makes it once a whole read went by without
  // reaching them, so a read from a nearby checkpoint never pays for it.
  const bulk = byteMode && options.end - startOffset >= BULK_COUNT_MIN_BYTES;
  const countsFromStart = bulk && (options.countToEnd === true || options.onLine === undefined);
  // A whole number of pieces, so every piece of every read is `chunkBytes` long but the file's last.
  const bulkChunkBytes = chunkBytes * Math.max(1, Math.floor(BULK_READ_CHUNK_BYTES / chunkBytes));
  const newCounter = () => takeLineFeedCounter(bulkChunkBytes, BULK_READS_AHEAD + 1);
  // Made before the first read, so that no read goes into other memory and has its lines counted one by one.
  let counter = countsFromStart ? newCounter() : undefined;
  // Whether the scan may still switch to the counter (once).
  let bulkCounting = bulk && !countsFromStart;
  // Decoded UTF-32 text has no fixed units-to-bytes ratio, so its line starts cannot be indexed.
  const scanner = new LineSplitter(unitBytes === 4 ? { ...options, onCheckpoint: undefined } : options);
  scanner.counter = counter;
  const reader = counter
    ? new ChunkReader(file, startOffset, options.end, bulkChunkBytes, BULK_READS_AHEAD, counter.buffers)
    : new ChunkReader(file, startOffset, options.end, chunkBytes, READS_AHEAD);
  const useCounter = () => {
    bulkCounting = false;
    counter = newCounter();
    if (counter) reader.useBuffers(counter.buffers, bulkChunkBytes, BULK_READS_AHEAD);
    scanner.counter = counter;
  };
  const skipBom = startOffset === 0 ? bomLength(options.encoding) : 0;
  const decoder = byteMode
    ? undefined
    : createStreamDecoder({ encoding: options.encoding.encoding, bom: false });
  const utf8 = options.checkUtf8 ? createUtf8StreamCheck() : undefined;
  let utf8Valid = true;
  let position = startOffset;
  let end = options.end;
  let unitOffset = startOffset + skipBom;
  let first = true;
  let nulByte = false;
  // One piece of a read, as long as a read of `chunkBytes` (a bulk read is split so: the line index then keeps a
  // checkpoint as often).
  const take = (bytes: Buffer) => {
    options.onBytes?.(bytes);
    // One pass over the piece for its line feeds, `\r`, `00` and high bytes, where the counter is in use.
    const survey = byteMode ? counter?.surveyChunk(bytes) : undefined;
    if (options.findNulByte && !nulByte) nulByte = survey ? survey.hasNul : containsNulByte(bytes);
    if (utf8 && utf8Valid) utf8Valid = utf8.push(bytes, survey?.ascii === true);
    let from = 0;
    if (first && skipBom > 0 && startsWithBom(bytes, options.encoding)) from = skipBom;
    else if (first) unitOffset = startOffset;
    first = false;
    if (byteMode) {
      scanner.push(byteChunk(bytes, position, survey), from);
    } else {
      // The BOM is cut before decoding, so the splitter must be told the first line starts after it: a file
      // holding only its BOM then has no line at all, as in byte mode.
      if (from > 0) scanner.skipTo(unitOffset);
      const text = decoder!.write(from > 0 ? bytes.subarray(from) : bytes);
      scanner.push(stringChunk(text, unitOffset, unitBytes), 0);
      unitOffset += text.length * unitBytes;
    }
    position += bytes.length;
  };
  try {
    while (position < end && scanner.wantsMore()) {
      if (options.signal?.aborted) throw abortError();
      if (bulkCounting && !first && scanner.isSkipping()) useCounter();
      const chunk = await reader.next();
      if (!chunk) {
        end = position; // the file shrank while being read: what was read is the whole of it
        break;
      }
      for (let at = 0; at < chunk.bytes.length && scanner.wantsMore(); at += chunkBytes) {
        take(chunk.bytes.subarray(at, at + chunkBytes));
      }
    }
  } finally {
    // Never leave a read running on a handle the caller is about to close, nor on buffers the next scan takes.
    await reader.drain();
    if (counter) giveBackLineFeedCounter(counter);
  }
  if (decoder && scanner.wantsMore()) {
    const rest = decoder.end();
    if (rest) scanner.push(stringChunk(rest, unitOffset, unitBytes), 0);
  }
  // A character cut off by the end of the file is invalid; one cut off where the scan stopped may be whole.
  if (utf8 && utf8Valid && position >= options.end) utf8Valid = utf8.end();
  // The total is known only when every line up to the end went through the splitter.
  const counted = position >= end && scanner.wantsMore();
  return {
    totalLines: counted ? scanner.finish(end) : undefined,
    bytesScanned: position,
    nulByte,
    notUtf8: !utf8Valid,
  };
}

/** The splitting state machine: counts breaks, tracks line starts, collects the lines asked for. */
class LineSplitter {
  private lineNumber: number;
  private lineStart: number;
  private pendingCR = false;
  private lastCheckpoint: number;
  private readonly firstLine: number;
  private readonly checkpointBytes: number;
  private readonly keepUnits: number;
  private delivering: boolean;
  private readonly countToEnd: boolean;
  private collecting: boolean;
  // The line being collected: `pieces` kept from earlier chunks, then the current chunk from `collectFrom`.
  private collectFrom = 0;
  private pieces: Array<Uint8Array | string> = [];
  private keptUnits = 0;
  private cut = false;
  private readonly decodeBytes: (bytes: Uint8Array) => string;

  /** The SIMD counter, once the scan has one: chunks read into its buffers are counted in bulk. */
  counter: LineFeedCounter | undefined;

  constructor(private readonly options: LineScanOptions) {
    this.lineNumber = options.start?.line ?? 1;
    this.lineStart = options.start?.offset ?? 0;
    this.lastCheckpoint = this.lineStart;
    this.firstLine = Math.max(options.firstLine ?? this.lineNumber, this.lineNumber);
    this.checkpointBytes = options.checkpointBytes ?? LINE_CHECKPOINT_BYTES;
    const maxChars = options.maxLineChars ?? 2000;
    // A code point is at most 4 bytes, or 2 UTF-16 units once decoded.
    this.keepUnits = (maxChars + 1) * (isAsciiCompatible(options.encoding.encoding) ? 4 : 2);
    this.delivering = options.onLine !== undefined;
    // Without a line consumer, a scan is a count.
    this.countToEnd = options.countToEnd === true || options.onLine === undefined;
    this.collecting = this.delivering && this.lineNumber >= this.firstLine;
    this.decodeBytes = byteDecoder(options.encoding);
    options.onCheckpoint?.({ line: this.lineNumber, offset: this.lineStart });
  }

  /** The first line starts at `offset`: what comes before (a byte order mark) is no part of any line. */
  skipTo(offset: number): void {
    this.lineStart = offset;
    this.lastCheckpoint = offset;
  }

  /** Whether reading further is of any use. */
  wantsMore(): boolean {
    return this.delivering || this.countToEnd;
  }

  /** Whether the lines being read now are only counted (before the first line to deliver, or after the last). */
  isSkipping(): boolean {
    return this.wantsMore() && !this.collecting;
  }

  push(chunk: LineChunk, from: number): void {
    const length = chunk.length;
    let index = from;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (length > index && chunk.codeAt(index) === 10) index += 1;
      this.startLine(chunk.offsetOf(index));
    } else if (index > 0) {
      this.skipTo(chunk.offsetOf(index));
    }
    if (this.collecting) this.collectFrom = index;
    if (chunk.raw !== undefined && !chunk.hasCR) {
      this.pushLineFeeds(chunk, chunk.raw, index);
      return;
    }
    if (
      chunk.raw !== undefined &&
      !this.collecting &&
      this.countMixedBreaks(chunk.raw, index, chunk.offsetOf(0))
    ) {
      return;
    }
    let lf = chunk.find(10, index);
    let cr = chunk.hasCR ? chunk.find(13, index) : length;
    while (this.wantsMore()) {
      let breakAt: number;
      let next: number;
      if (lf < cr) {
        breakAt = lf;
        next = lf + 1;
      } else if (cr < length) {
        breakAt = cr;
        next = cr + 1;
        if (next < length) {
          if (chunk.codeAt(next) === 10) next += 1;
        } else {
          this.pendingCR = true;
        }
      } else {
        break;
      }
      if (this.collecting) this.endLine(chunk, breakAt, true);
      this.lineNumber += 1;
      if (!this.pendingCR) this.startLine(chunk.offsetOf(next));
      if (this.delivering && this.lineNumber >= this.firstLine) {
        this.collecting = true;
        this.collectFrom = next;
      }
      index = next;
      if (lf < index) lf = chunk.find(10, index);
      if (cr < index) cr = chunk.find(13, index);
    }
    if (this.collecting) this.keepPiece(chunk, length);
  }

  /** The common case, raw bytes with `\n` breaks only: lines not delivered are counted in a tight loop. */
  private pushLineFeeds(chunk: LineChunk, bytes: Buffer, from: number): void {
    let index = from;
    while (this.wantsMore()) {
      if (!this.collecting) {
        const known = index === 0 ? chunk.lineFeeds : undefined;
        index = this.countLineFeeds(bytes, index, chunk.offsetOf(0), known);
        if (index < 0) return;
        this.collecting = true;
        this.collectFrom = index;
        continue;
      }
      const found = bytes.indexOf(10, index);
      if (found === -1) break;
      this.endLine(chunk, found, true);
      this.lineNumber += 1;
      index = found + 1;
      this.startLine(chunk.offsetOf(index));
      if (this.delivering) {
        this.collecting = true;
        this.collectFrom = index;
      }
    }
    if (this.collecting) this.keepPiece(chunk, bytes.length);
  }

  /**
   * Counts `\n` from `from` on, recording checkpoints, until the line to deliver first starts (returns its index) or
   * the chunk ends (returns -1). `known`: the count from `from` to the end, when a survey of the chunk has it.
   */
  private countLineFeeds(bytes: Buffer, from: number, base: number, known: number | undefined): number {
    const stopAt = this.delivering ? this.firstLine : Number.POSITIVE_INFINITY;
    const onCheckpoint = this.options.onCheckpoint;
    const spacing = this.checkpointBytes;
    let line = this.lineNumber;
    let lastCheckpoint = this.lastCheckpoint;
    let lineStart = this.lineStart;
    let index = from;
    let stoppedAt = -1;
    const bulk = known ?? this.counter?.countLineFeeds(bytes, from, bytes.length);
    if (bulk !== undefined && line + bulk < stopAt) {
      // The line to deliver is not in this chunk: take all its breaks at once (one checkpoint per chunk at most).
      if (bulk > 0) {
        line += bulk;
        lineStart = base + bytes.lastIndexOf(10) + 1;
        if (onCheckpoint !== undefined && lineStart - lastCheckpoint >= spacing) {
          lastCheckpoint = lineStart;
          onCheckpoint({ line, offset: lineStart });
        }
      }
      index = bytes.length;
    }
    while (index < bytes.length) {
      const found = bytes.indexOf(10, index);
      if (found === -1) break;
      index = found + 1;
      line += 1;
      lineStart = base + index;
      if (onCheckpoint !== undefined && lineStart - lastCheckpoint >= spacing) {
        lastCheckpoint = lineStart;
        onCheckpoint({ line, offset: lineStart });
      }
      if (line >= stopAt) {
        stoppedAt = index;
        break;
      }
    }
    this.lineNumber = line;
    this.lastCheckpoint = lastCheckpoint;
    this.lineStart = lineStart;
    return stoppedAt;
  }

  /**
   * Bulk path for a chunk with `\r` in it, when none of its lines is to be delivered: breaks = `\n` + lone `\r`
   * (+ a `\r` ending the chunk, whose `\n` may start the next one). Returns false, changing nothing, when the counter
   * is unavailable or the line to deliver first starts in this chunk.
   */
  private countMixedBreaks(bytes: Buffer, from: number, base: number): boolean {
    const counter = this.counter;
    const length = bytes.length;
    if (counter === undefined || from >= length) return false;
    const endsWithCR = bytes[length - 1] === 13;
    const inner = endsWithCR ? length - 1 : length;
    const lineFeeds = counter.countLineFeeds(bytes, from, length);
    const carriageReturns = counter.countByte(bytes, from, inner, 13);
    const pairs = counter.countCrLf(bytes, from, inner);
    if (lineFeeds === undefined || carriageReturns === undefined || pairs === undefined) return false;
    const breaks = lineFeeds + carriageReturns - pairs + (endsWithCR ? 1 : 0);
    const stopAt = this.delivering ? this.firstLine : Number.POSITIVE_INFINITY;
    if (this.lineNumber + breaks >= stopAt) return false;
    this.lineNumber += breaks;
    if (endsWithCR) {
      this.pendingCR = true; // the next chunk starts the next line (after its `\n`, if any)
    } else if (breaks > 0) {
      this.startLine(base + Math.max(bytes.lastIndexOf(10), bytes.lastIndexOf(13)) + 1);
    }
    return true;
  }

  /** End of the scanned range: delivers an unterminated last line, returns the total. */
  finish(end: number): number {
    // Bytes after the last break form a last line without a break.
    const hasTail = !this.pendingCR && this.lineStart < end;
    if (!hasTail) return this.lineNumber - 1;
    if (this.collecting) this.endLine(undefined, 0, false);
    return this.lineNumber;
  }

  private startLine(offset: number): void {
    this.lineStart = offset;
    if (this.options.onCheckpoint && offset - this.lastCheckpoint >= this.checkpointBytes) {
      this.lastCheckpoint = offset;
      this.options.onCheckpoint({ line: this.lineNumber, offset });
    }
  }

  private keepPiece(chunk: LineChunk, end: number): void {
    const room = this.keepUnits - this.keptUnits;
    const take = Math.min(room, end - this.collectFrom);
    if (take > 0) {
      this.pieces.push(chunk.copy(this.collectFrom, this.collectFrom + take));
      this.keptUnits += take;
    }
    if (end - this.collectFrom > take) this.cut = true;
    this.collectFrom = 0;
  }

  private endLine(chunk: LineChunk | undefined, end: number, terminated: boolean): void {
    if (chunk) {
      const room = this.keepUnits - this.keptUnits;
      const take = Math.min(room, end - this.collectFrom);
      if (take > 0) this.pieces.push(chunk.view(this.collectFrom, this.collectFrom + take));
      if (end - this.collectFrom > take) this.cut = true;
    }
    const text = this.textOf(this.pieces);
    const line: ScannedLine = { number: this.lineNumber, text, terminated, cut: this.cut };
    this.pieces = [];
    this.keptUnits = 0;
    this.cut = false;
    this.collecting = false;
    if (this.options.onLine!(line) === false) this.delivering = false;
  }

  private textOf(pieces: Array<Uint8Array | string>): string {
    if (pieces.length === 0) return '';
    if (typeof pieces[0] === 'string') return (pieces as string[]).join('');
    const bytes = pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces as Uint8Array[]);
    return this.decodeBytes(bytes);
  }
}

function byteDecoder(encoding: TextEncoding): (bytes: Uint8Array) => string {
  const name = encoding.encoding.toLowerCase();
  if (name === 'utf-8' || name === 'utf8') {
    return (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }
  return (bytes) => {
    const decoder = createStreamDecoder({ encoding: encoding.encoding, bom: false });
    return decoder.write(bytes) + decoder.end();
  };
}

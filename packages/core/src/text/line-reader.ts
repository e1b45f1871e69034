import type { FileHandle } from 'node:fs/promises';
import { createStreamDecoder } from './codec-stream.js';
import type { TextEncoding } from './codec-types.js';
import type { LinePosition } from './line-index.js';
import { byteChunk, stringChunk, type LineChunk } from './line-chunk.js';

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
  /** Receives line starts at least `checkpointBytes` apart, to build a line index. */
  onCheckpoint?: (position: LinePosition) => void;
  /** Minimum distance between checkpoints (default 1 MiB). */
  checkpointBytes?: number;
  /** Code points of a delivered line kept at most (plus one, so a longer line can be told); default 2000. */
  maxLineChars?: number;
  /** Read size (default 256 KiB). */
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
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** Encodings where `\n` and `\r` are always the single bytes 0x0A / 0x0D, so raw bytes can be split directly. */
export function isAsciiCompatible(encoding: string): boolean {
  return !/^(utf-?16|utf-?32|ucs-?2|ucs-?4|utf-?7)/i.test(encoding);
}

function bomLength(encoding: TextEncoding): number {
  if (!encoding.bom) return 0;
  const name = encoding.encoding.toLowerCase();
  if (name === 'utf-8' || name === 'utf8') return 3;
  if (/^(utf-?16|ucs-?2)/.test(name)) return 2;
  if (/^utf-?32/.test(name)) return 4;
  return 0;
}

function abortError(): Error {
  const error = new Error('The operation was aborted.');
  error.name = 'AbortError';
  return error;
}

/**
 * Streams a file's lines with bounded memory (a few chunks plus the delivered lines' prefixes), splitting on `\n`,
 * `\r\n` and `\r` — a `\r\n` split across two reads is still one break. ASCII-compatible encodings are split on raw
 * bytes and only delivered lines are decoded; UTF-16 is decoded as it streams. Lines are never held whole: a line of
 * any length costs at most `maxLineChars` code points.
 */
export async function scanLines(file: FileHandle, options: LineScanOptions): Promise<LineScanResult> {
  const byteMode = isAsciiCompatible(options.encoding.encoding);
  const unitBytes = byteMode ? 1 : /^utf-?32/i.test(options.encoding.encoding) ? 4 : 2;
  // Decoded UTF-32 text has no fixed units-to-bytes ratio, so its line starts cannot be indexed.
  const scanner = new LineSplitter(unitBytes === 4 ? { ...options, onCheckpoint: undefined } : options);
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const startOffset = options.start?.offset ?? 0;
  const skipBom = startOffset === 0 ? bomLength(options.encoding) : 0;
  const decoder = byteMode
    ? undefined
    : createStreamDecoder({ encoding: options.encoding.encoding, bom: false });
  let position = startOffset;
  let end = options.end;
  let unitOffset = startOffset + skipBom;
  let first = true;
  while (position < end && scanner.wantsMore()) {
    if (options.signal?.aborted) throw abortError();
    const { bytesRead } = await file.read(buffer, 0, Math.min(chunkBytes, end - position), position);
    if (bytesRead === 0) {
      end = position; // the file shrank while being read: what was read is the whole of it
      break;
    }
    const bytes = buffer.subarray(0, bytesRead);
    options.onBytes?.(bytes);
    let from = 0;
    if (first && skipBom > 0 && hasBom(bytes, skipBom, options.encoding)) from = skipBom;
    else if (first) unitOffset = startOffset;
    first = false;
    if (byteMode) {
      scanner.push(byteChunk(bytes, position), from);
    } else {
      const text = decoder!.write(from > 0 ? bytes.subarray(from) : bytes);
      scanner.push(stringChunk(text, unitOffset, unitBytes), 0);
      unitOffset += text.length * unitBytes;
    }
    position += bytesRead;
  }
  if (decoder && scanner.wantsMore()) {
    const rest = decoder.end();
    if (rest) scanner.push(stringChunk(rest, unitOffset, unitBytes), 0);
  }
  // The total is known only when every line up to the end went through the splitter.
  const counted = position >= end && scanner.wantsMore();
  return { totalLines: counted ? scanner.finish(end) : undefined, bytesScanned: position };
}

function hasBom(bytes: Uint8Array, length: number, encoding: TextEncoding): boolean {
  if (length === 3) return bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  const name = encoding.encoding.toLowerCase();
  if (length === 2 && name.endsWith('le')) return bytes[0] === 0xff && bytes[1] === 0xfe;
  if (length === 2)
    return (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe);
  return bytes.length >= length;
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
  private pieces: Array<Uint8Array | string> = [];
  private keptUnits = 0;
  private cut = false;
  private readonly decodeBytes: (bytes: Uint8Array) => string;

  constructor(private readonly options: LineScanOptions) {
    this.lineNumber = options.start?.line ?? 1;
    this.lineStart = options.start?.offset ?? 0;
    this.lastCheckpoint = this.lineStart;
    this.firstLine = Math.max(options.firstLine ?? this.lineNumber, this.lineNumber);
    this.checkpointBytes = options.checkpointBytes ?? 1 << 20;
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

  /** Whether reading further is of any use. */
  wantsMore(): boolean {
    return this.delivering || this.countToEnd;
  }

  push(chunk: LineChunk, from: number): void {
    const length = chunk.length;
    let index = from;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (length > index && chunk.codeAt(index) === 10) index += 1;
      this.startLine(chunk.offsetOf(index));
    } else if (index > 0) {
      this.lineStart = chunk.offsetOf(index);
      this.lastCheckpoint = this.lineStart;
    }
    if (this.collecting) this.startCollecting(chunk, index);
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
      if (this.delivering && this.lineNumber >= this.firstLine) this.beginLine(chunk, next);
      index = next;
      if (lf < index) lf = chunk.find(10, index);
      if (cr < index) cr = chunk.find(13, index);
    }
    if (this.collecting) this.keepPiece(chunk, length);
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

  // Collection: the current line's units from `collectFrom` in the current chunk plus earlier pieces.
  private collectFrom = 0;

  private beginLine(chunk: LineChunk, index: number): void {
    this.collecting = true;
    this.startCollecting(chunk, index);
  }

  private startCollecting(_chunk: LineChunk, index: number): void {
    this.collectFrom = index;
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

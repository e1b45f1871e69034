/**
 * One read of a file as the line splitter sees it: raw bytes (ASCII-compatible encodings) or decoded text (UTF-16),
 * behind the same few operations so one splitting loop serves both.
 */
export interface LineChunk {
  readonly length: number;
  /** The raw bytes, when the chunk is raw bytes (lets the splitter run its fast path). */
  readonly raw: Buffer | undefined;
  /** Whether a `\r` occurs at all (most files have none: the splitter then only looks for `\n`). */
  readonly hasCR: boolean;
  /** How many `\n` the whole chunk holds, when a survey of it counted them already. */
  readonly lineFeeds?: number;
  /** Index of the next `code` (10 or 13) at or after `from`, or `length` when there is none. */
  find(code: number, from: number): number;
  /** The unit at `index`. */
  codeAt(index: number): number;
  /** Byte offset in the file of unit `index`. */
  offsetOf(index: number): number;
  /** Units `[start, end)` that stay valid after the next read. */
  copy(start: number, end: number): Uint8Array | string;
  /** Units `[start, end)`, valid until the next read. */
  view(start: number, end: number): Uint8Array | string;
}

/** Raw bytes read at `fileOffset`; `survey`, when the bytes were surveyed already, spares another pass over them. */
export function byteChunk(
  bytes: Buffer,
  fileOffset: number,
  survey?: { lineFeeds: number; hasCR: boolean },
): LineChunk {
  const length = bytes.length;
  return {
    length,
    raw: bytes,
    hasCR: survey ? survey.hasCR : bytes.indexOf(13) !== -1,
    lineFeeds: survey?.lineFeeds,
    find(code, from) {
      const found = bytes.indexOf(code, from);
      return found === -1 ? length : found;
    },
    codeAt: (index) => bytes[index]!,
    offsetOf: (index) => fileOffset + index,
    copy: (start, end) => Uint8Array.prototype.slice.call(bytes, start, end),
    view: (start, end) => bytes.subarray(start, end),
  };
}

/** Decoded text whose first unit came from `fileOffset`, each UTF-16 unit standing for `unitBytes` bytes. */
export function stringChunk(text: string, fileOffset: number, unitBytes: number): LineChunk {
  const length = text.length;
  return {
    length,
    raw: undefined,
    hasCR: text.includes('\r'),
    find(code, from) {
      const found = text.indexOf(code === 10 ? '\n' : '\r', from);
      return found === -1 ? length : found;
    },
    codeAt: (index) => text.charCodeAt(index),
    offsetOf: (index) => fileOffset + index * unitBytes,
    copy: (start, end) => text.slice(start, end),
    view: (start, end) => text.slice(start, end),
  };
}

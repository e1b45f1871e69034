import type { OpenFile } from '@kimi-tools/core/fs';
import {
  createContentHasher,
  scanLines,
  scanLinesWhereStored,
  shownLine,
  stampNeedsHash,
  type FileStamp,
  type ShownLine,
  type LinePosition,
  type ScannedLine,
  type TextEncoding,
} from '@kimi-tools/core/toolkit';
import type { LineIndexStore } from './line-index.js';
import { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES } from './limits.js';

/** The open file being read, and what is known about it. */
export interface OpenTextFile {
  handle: OpenFile;
  realPath: string;
  size: number;
  /** The file's stamp without a hash (the stats of the open file, taken before any byte was read). */
  version: FileStamp;
  encoding: TextEncoding;
  indexes: LineIndexStore;
  /**
   * False when the encoding was decided on the whole file after a sample misled: the index of this version may hold
   * lines of the sample's encoding, so it is neither used nor stored.
   */
  useIndex?: boolean;
  signal?: AbortSignal;
}

/** What one read produced. */
export interface LinesRead {
  lines: ShownLine[];
  totalLines: number;
  /** SHA-256 (hex) of the whole content, when its stamp needs one (`stampNeedsHash`) or its index holds it. */
  hash: string | undefined;
  /** A NUL byte turned up past the sample the encoding was chosen from: the file is binary after all. */
  binary: boolean;
  /**
   * The encoding chosen from a sample was UTF-8, but the whole file is not: its encoding must be decided on the whole
   * file, as the write tools decide it, and the file read again.
   */
  notUtf8: boolean;
  maxLinesReached: boolean;
  maxBytesReached: boolean;
}

/**
 * Runs one scan that hands lines from `firstLine` to `onLine`, and returns the file's total line count and hash.
 * With an index of this file version it starts at the nearest checkpoint and stops as soon as `onLine` is done;
 * without one it scans the whole file once, hashing it, looking for a NUL byte and recording checkpoints, and stores
 * the new index (a binary file gets none: it is never read). Where the backend scans the file where it is stored
 * (`scanLinesWhereStored`), that scan makes the index, and the lines are read from it.
 */
async function scanWithIndex(
  file: OpenTextFile,
  firstLine: number,
  onLine: ((line: ScannedLine) => boolean) | undefined,
): Promise<{ totalLines: number; hash: string | undefined; binary: boolean; notUtf8: boolean }> {
  const version = file.version;
  const useIndex = file.useIndex ?? true;
  let known = useIndex ? file.indexes.get(file.realPath, version) : undefined;
  // UTF-16 text is full of 0x00 bytes; a U+0000 in it is shown as a placeholder like any control character.
  const lookForNul = !file.encoding.encoding.startsWith('utf-16');
  // Strict and streaming, in the scan's own pass: a sample that looked like UTF-8 may have misled.
  const checkUtf8 = file.encoding.encoding === 'utf-8';
  if (!known && useIndex) {
    // A backend that scans the file where it is stored counts it there; the lines asked for are then read from the
    // nearest checkpoint, as with an index kept from an earlier read.
    const stored = await scanLinesWhereStored(file.handle, {
      encoding: file.encoding,
      end: file.size,
      hash: stampNeedsHash(version),
      findNulByte: lookForNul,
      checkUtf8,
      ...(file.signal ? { signal: file.signal } : {}),
    });
    if (stored && (stored.nulByte || stored.notUtf8)) {
      return {
        totalLines: stored.totalLines,
        hash: stored.hash,
        binary: stored.nulByte,
        notUtf8: stored.notUtf8,
      };
    }
    if (stored) {
      known = file.indexes.set(file.realPath, {
        version,
        totalLines: stored.totalLines,
        checkpoints: stored.checkpoints,
        hash: stored.hash,
        encoding: file.encoding,
      });
    }
  }
  const common = {
    encoding: file.encoding,
    end: file.size,
    firstLine,
    maxLineChars: MAX_LINE_LENGTH,
    signal: file.signal,
  };
  if (known) {
    if (onLine && firstLine <= known.totalLines) {
      await scanLines(file.handle, { ...common, start: known.nearest(firstLine), onLine });
    }
    return { totalLines: known.totalLines, hash: known.hash, binary: false, notUtf8: false };
  }
  const hasher = stampNeedsHash(file.version) ? createContentHasher() : undefined;
  const checkpoints: LinePosition[] = [];
  const result = await scanLines(file.handle, {
    ...common,
    onLine,
    countToEnd: true,
    findNulByte: lookForNul,
    checkUtf8,
    onBytes: hasher ? (bytes) => hasher.update(bytes) : undefined,
    onCheckpoint: (position) => checkpoints.push(position),
  });
  const totalLines = result.totalLines ?? 0;
  const binary = result.nulByte;
  const notUtf8 = result.notUtf8;
  const hash = hasher?.digest('hex');
  // Only a scan of exactly this version is worth remembering (the file may have shrunk while being read).
  if (useIndex && result.bytesScanned === file.size && !binary && !notUtf8) {
    file.indexes.set(file.realPath, { version, totalLines, checkpoints, hash, encoding: file.encoding });
  }
  return { totalLines, hash, binary, notUtf8 };
}

/** Forward read from `lineOffset` (≥ 1): stops at `nLines`, then at MAX_LINES, then once MAX_BYTES is reached. */
export async function readForward(
  file: OpenTextFile,
  lineOffset: number,
  nLines: number,
): Promise<LinesRead> {
  const lines: ShownLine[] = [];
  let bytes = 0;
  let maxLinesReached = false;
  let maxBytesReached = false;
  const { totalLines, hash, binary, notUtf8 } = await scanWithIndex(file, lineOffset, (line) => {
    const shown = shownLine(line.number, line.text, line.terminated, line.cut);
    lines.push(shown);
    bytes += shown.bytes;
    if (lines.length >= nLines) return false;
    if (lines.length >= MAX_LINES) {
      maxLinesReached = true;
      return false;
    }
    if (bytes >= MAX_BYTES) {
      maxBytesReached = true;
      return false;
    }
    return true;
  });
  return { lines, totalLines, hash, binary, notUtf8, maxLinesReached, maxBytesReached };
}

/**
 * Tail read: the window is the last `back` lines; its first `min(nLines, MAX_LINES)` lines are the candidates, and
 * when they exceed MAX_BYTES only the newest that fit are kept.
 */
export async function readTail(file: OpenTextFile, back: number, nLines: number): Promise<LinesRead> {
  const counted = await scanWithIndex(file, Number.MAX_SAFE_INTEGER, undefined);
  const totalLines = counted.totalLines;
  const windowStart = Math.max(1, totalLines - back + 1);
  const windowLength = totalLines - windowStart + 1;
  const wanted = Math.min(nLines, MAX_LINES, windowLength);
  const candidates: ShownLine[] = [];
  if (wanted > 0) {
    await scanWithIndex(file, windowStart, (line) => {
      candidates.push(shownLine(line.number, line.text, line.terminated, line.cut));
      return candidates.length < wanted;
    });
  }
  let bytes = candidates.reduce((sum, line) => sum + line.bytes, 0);
  let first = 0;
  while (bytes > MAX_BYTES && first < candidates.length) bytes -= candidates[first++]!.bytes;
  return {
    lines: candidates.slice(first),
    totalLines,
    hash: counted.hash,
    binary: counted.binary,
    notUtf8: counted.notUtf8,
    maxLinesReached: nLines > MAX_LINES && windowLength > MAX_LINES,
    maxBytesReached: first > 0,
  };
}

import type { OpenFile, StoredLineScan } from '../fs/file-system.js';
import { bomBytes } from './bom.js';
import type { TextEncoding } from './codec-types.js';
import { isAsciiCompatible, LINE_CHECKPOINT_BYTES } from './line-reader.js';

/** What {@link scanLinesWhereStored} needs to know of the scan. */
export interface StoredLineScanOptions {
  /** The file's encoding: only an ASCII-compatible one is scanned where it is stored (its breaks are raw bytes). */
  encoding: TextEncoding;
  /** Bytes `[0, end)`: the size the open file's `stat()` gave. */
  end: number;
  /** Whether the content hash is wanted. */
  hash: boolean;
  /** Whether to look for a `00` byte. */
  findNulByte: boolean;
  /** Whether to check strict UTF-8. */
  checkUtf8: boolean;
  signal?: AbortSignal;
}

/**
 * The line scan a line index needs (what `scanLines` counting to `end` would find, with checkpoints), made by the
 * backend where the file is stored when it offers that ({@link OpenFile.scanLinesWhereStored}) and the encoding
 * splits lines on raw bytes; `undefined` otherwise, and the caller scans the file itself.
 */
export async function scanLinesWhereStored(
  handle: OpenFile,
  options: StoredLineScanOptions,
): Promise<StoredLineScan | undefined> {
  if (!handle.scanLinesWhereStored || !isAsciiCompatible(options.encoding.encoding)) return undefined;
  return handle.scanLinesWhereStored({
    end: options.end,
    bom: bomBytes(options.encoding),
    hash: options.hash,
    findNulByte: options.findNulByte,
    checkUtf8: options.checkUtf8,
    checkpointBytes: LINE_CHECKPOINT_BYTES,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

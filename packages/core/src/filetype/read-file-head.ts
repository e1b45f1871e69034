import type { FileSystem } from '../fs/file-system.js';
import { readFileUpTo } from '../fs/regular-file.js';

/** Bytes `file-type` needs to recognise every format it knows. */
export const FILE_HEAD_BYTES = 4100;

/** Reads up to `bytes` bytes from the start of a file on `fs` (fewer when the file is shorter). */
export function readFileHead(
  fs: FileSystem,
  filePath: string,
  bytes: number = FILE_HEAD_BYTES,
): Promise<Uint8Array> {
  return readFileUpTo(fs, filePath, bytes);
}

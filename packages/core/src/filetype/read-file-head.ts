import { readFileUpTo } from '../fs/regular-file.js';

/** Bytes `file-type` needs to recognise every format it knows. */
export const FILE_HEAD_BYTES = 4100;

/** Reads up to `bytes` bytes from the start of a file (fewer when the file is shorter). */
export function readFileHead(filePath: string, bytes: number = FILE_HEAD_BYTES): Promise<Uint8Array> {
  return readFileUpTo(filePath, bytes);
}

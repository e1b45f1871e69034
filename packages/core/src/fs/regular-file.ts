import { constants as fsConstants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { notRegularFileErrnoText } from '../errors.js';
import { errnoError, isMissingPathError } from './errno.js';
import { readHandleUpTo } from './read-bytes.js';

/** A regular file opened for reading, with the `fstat` of that very descriptor. */
export interface OpenedRegularFile {
  handle: FileHandle;
  stats: Stats;
}

/** Why {@link openRegularFile} opened nothing: nothing is there, or it is not a regular file (directory, FIFO...). */
export type NotRegularFile = 'missing' | 'not-a-file';

/**
 * Whether `filePath` exists and is something other than a regular file, asked after an open of it failed: a socket
 * cannot be opened at all (ENXIO on Linux, EOPNOTSUPP on macOS), nor can the node of a device the kernel lacks, and
 * then what the path is, not the open's errno, is the answer. `false` when it cannot be told.
 */
async function isOtherThanRegularFile(filePath: string): Promise<boolean> {
  try {
    return !(await stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/**
 * Opens `filePath` for reading and decides "is a regular file" on the opened descriptor, never on an earlier `stat`:
 * the path may turn into a FIFO or a device in between. O_NONBLOCK makes opening a FIFO return at once instead of
 * parking one of libuv's four pool threads until a writer shows up; with the pool exhausted every later file
 * operation of the process (module loading included) would wait forever. The caller closes the handle.
 */
export async function openRegularFile(filePath: string): Promise<OpenedRegularFile | NotRegularFile> {
  let handle: FileHandle;
  try {
    handle = await open(filePath, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    if (isMissingPathError(error)) return 'missing';
    if (await isOtherThanRegularFile(filePath)) return 'not-a-file';
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return 'not-a-file';
}

/** A regular file's bytes (up to the limit given) and the `fstat` taken on the descriptor they were read from. */
export interface RegularFileBytes {
  bytes: Buffer;
  stats: Stats;
}

/**
 * Reads a regular file through {@link openRegularFile}: at most `maxBytes` bytes from its start (the whole file by
 * default). A path that is missing or not a regular file yields why, and nothing is read from it.
 */
export async function readRegularFile(
  filePath: string,
  maxBytes: number = Number.MAX_SAFE_INTEGER,
): Promise<RegularFileBytes | NotRegularFile> {
  const opened = await openRegularFile(filePath);
  if (typeof opened === 'string') return opened;
  try {
    // One byte more than the size: a file that grew since the fstat is still read to the limit.
    const bytes = await readHandleUpTo(opened.handle, maxBytes, opened.stats.size + 1);
    return { bytes, stats: opened.stats };
  } finally {
    await opened.handle.close();
  }
}

/** {@link openRegularFile}, with a missing path or one that is not a regular file thrown as ENOENT / EISDIR. */
export async function openRegularFileOrThrow(filePath: string): Promise<OpenedRegularFile> {
  const file = await openRegularFile(filePath);
  if (file === 'missing') throw errnoError('ENOENT', `no such file, open '${filePath}'`);
  if (file === 'not-a-file') throw errnoError('EISDIR', notRegularFileErrnoText(filePath));
  return file;
}

/**
 * Reads up to `maxBytes` bytes from the start of the regular file at `filePath` (fewer when the file is shorter); a
 * missing path or one that is not a regular file is thrown as ENOENT / EISDIR.
 */
export async function readFileUpTo(filePath: string, maxBytes: number): Promise<Buffer> {
  const { handle, stats } = await openRegularFileOrThrow(filePath);
  try {
    // One byte more than the size: a file that grew since the fstat is still read to the limit.
    return await readHandleUpTo(handle, maxBytes, stats.size + 1);
  } finally {
    await handle.close();
  }
}

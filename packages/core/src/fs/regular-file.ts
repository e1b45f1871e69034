import { notRegularFileErrnoText } from '../errors.js';
import { errnoError, isMissingPathError } from './errno.js';
import type { FileStats, FileSystem, OpenFile } from './file-system.js';
import { readHandleUpTo } from './read-bytes.js';

/** A regular file opened for reading, with the stats of that very open file. */
export interface OpenedRegularFile {
  handle: OpenFile;
  stats: FileStats;
}

/** Why {@link openRegularFile} opened nothing: nothing is there, or it is not a regular file (directory, FIFO...). */
export type NotRegularFile = 'missing' | 'not-a-file';

/**
 * Whether `filePath` exists on `fs` and is something other than a regular file, asked after an open of it failed: a
 * socket cannot be opened at all (ENXIO on Linux, EOPNOTSUPP on macOS), nor can the node of a device the kernel lacks,
 * and then what the path is, not the open's errno, is the answer. `false` when it cannot be told.
 */
async function isOtherThanRegularFile(fs: FileSystem, filePath: string): Promise<boolean> {
  try {
    return !(await fs.stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/**
 * Opens `filePath` on `fs` for reading and decides "is a regular file" on the opened file, never on an earlier `stat`:
 * the path may turn into a FIFO or a device in between. Opening for reading never waits for a FIFO's writer (the
 * backend's `open` contract). The caller closes the handle.
 */
export async function openRegularFile(
  fs: FileSystem,
  filePath: string,
): Promise<OpenedRegularFile | NotRegularFile> {
  let handle: OpenFile;
  try {
    handle = await fs.open(filePath, 'read');
  } catch (error) {
    if (isMissingPathError(error)) return 'missing';
    if (await isOtherThanRegularFile(fs, filePath)) return 'not-a-file';
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

/** A regular file's bytes (up to the limit given) and the stats taken on the open file they were read from. */
export interface RegularFileBytes {
  bytes: Buffer;
  stats: FileStats;
}

/**
 * Reads a regular file through {@link openRegularFile}: at most `maxBytes` bytes from its start (the whole file by
 * default). A path that is missing or not a regular file yields why, and nothing is read from it.
 */
export async function readRegularFile(
  fs: FileSystem,
  filePath: string,
  maxBytes: number = Number.MAX_SAFE_INTEGER,
): Promise<RegularFileBytes | NotRegularFile> {
  const opened = await openRegularFile(fs, filePath);
  if (typeof opened === 'string') return opened;
  try {
    // One byte more than the size: a file that grew since the stat is still read to the limit.
    const bytes = await readHandleUpTo(opened.handle, maxBytes, opened.stats.size + 1);
    return { bytes, stats: opened.stats };
  } finally {
    await opened.handle.close();
  }
}

/** {@link openRegularFile}, with a missing path or one that is not a regular file thrown as ENOENT / EISDIR. */
export async function openRegularFileOrThrow(fs: FileSystem, filePath: string): Promise<OpenedRegularFile> {
  const file = await openRegularFile(fs, filePath);
  if (file === 'missing') throw errnoError('ENOENT', `no such file, open '${filePath}'`);
  if (file === 'not-a-file') throw errnoError('EISDIR', notRegularFileErrnoText(filePath));
  return file;
}

/**
 * Reads up to `maxBytes` bytes from the start of the regular file at `filePath` (fewer when the file is shorter); a
 * missing path or one that is not a regular file is thrown as ENOENT / EISDIR.
 */
export async function readFileUpTo(fs: FileSystem, filePath: string, maxBytes: number): Promise<Buffer> {
  const { handle, stats } = await openRegularFileOrThrow(fs, filePath);
  try {
    // One byte more than the size: a file that grew since the stat is still read to the limit.
    return await readHandleUpTo(handle, maxBytes, stats.size + 1);
  } finally {
    await handle.close();
  }
}

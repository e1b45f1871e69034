import { openRegularFile, type NotRegularFile } from '../fs/regular-file.js';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { snapshotOf, type FileStamp } from './file-stamp.js';

/** A regular file's whole content and the stamp of exactly that content. */
export interface StampedBytes {
  bytes: Buffer;
  /** {@link snapshotOf} the bytes, with the `fstat` taken on their descriptor before they were read. */
  stamp: FileStamp;
}

/**
 * Reads the whole regular file at `filePath` and stamps what was read: a writing tool checks the read state on this
 * stamp and hands it to `applyFileChange`, so the bytes the change is computed from are hashed once, and the check
 * judges those very bytes rather than a second look at a file that may have changed since. A path that is missing or
 * not a regular file yields why, and nothing is read from it.
 */
export async function readStampedFile(filePath: string): Promise<StampedBytes | NotRegularFile> {
  const opened = await openRegularFile(filePath);
  if (typeof opened === 'string') return opened;
  try {
    // Taken before the bytes are read, so a change while they are read makes the stamp older, never newer.
    const stats = await opened.handle.stat({ bigint: true });
    // One byte more than the size: a file that grew since the fstat is read whole, and its hash then disagrees.
    const bytes = await readHandleUpTo(opened.handle, Number.MAX_SAFE_INTEGER, Number(stats.size) + 1);
    return { bytes, stamp: snapshotOf(bytes, stats) };
  } finally {
    await opened.handle.close();
  }
}

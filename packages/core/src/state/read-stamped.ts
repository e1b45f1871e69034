import type { FileSystem } from '../fs/file-system.js';
import { openRegularFile, type NotRegularFile } from '../fs/regular-file.js';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { snapshotOf, stampOfStats, unchangedSinceSettled, type FileStamp } from './file-stamp.js';

/** A regular file's whole content and the stamp of exactly that content. */
export interface StampedBytes {
  bytes: Buffer;
  /**
   * {@link snapshotOf} the bytes, with the stats taken on their open file before they were read; the hash is the
   * known stamp's when the file is unchanged since a settled look ({@link unchangedSinceSettled}).
   */
  stamp: FileStamp;
}

/**
 * Reads the whole regular file at `filePath` on `fs` and stamps what was read: a writing tool checks the read state on this
 * stamp and hands it to `applyFileChange`, so the bytes the change is computed from are hashed once, and the check
 * judges those very bytes rather than a second look at a file that may have changed since. `known` is the stamp the
 * read state holds of the file, if any: when the file's stats show it unchanged since that stamp's settled look, its
 * hash is the content's and the bytes are not hashed again (a 5 MB file: about 3 ms, and loading `node:crypto` on a
 * first call). A path that is missing or not a regular file yields why, and nothing is read from it.
 */
export async function readStampedFile(
  fs: FileSystem,
  filePath: string,
  known?: FileStamp,
): Promise<StampedBytes | NotRegularFile> {
  const opened = await openRegularFile(fs, filePath);
  if (typeof opened === 'string') return opened;
  try {
    // Taken before the bytes are read, so a change while they are read makes the stamp older, never newer.
    const stats = opened.stats;
    // One byte more than the size: a file that grew since the stat is read whole, and its hash then disagrees.
    const bytes = await readHandleUpTo(opened.handle, Number.MAX_SAFE_INTEGER, stats.size + 1);
    const { seenMs } = opened;
    // The stats again once the bytes are in: a write while they were read changed the change time since.
    if (
      known !== undefined &&
      unchangedSinceSettled(known, stats, seenMs) &&
      unchangedSinceSettled(known, await opened.handle.stat(), seenMs)
    ) {
      return { bytes, stamp: stampOfStats(stats, known.hash, seenMs) };
    }
    return { bytes, stamp: snapshotOf(bytes, stats, seenMs) };
  } finally {
    await opened.handle.close();
  }
}

import type { Hash } from 'node:crypto';
import type { FileSystem } from '../fs/file-system.js';
import { openRegularFile, type NotRegularFile } from '../fs/regular-file.js';
import { readHandleConsuming } from '../fs/read-bytes.js';
import { createContentHasher } from './content-hash.js';
import { stampNeedsHash, stampOfStats, type FileStamp } from './file-stamp.js';

/** A regular file's whole content and the stamp of exactly that content. */
export interface StampedBytes {
  bytes: Buffer;
  /**
   * The stamp of the bytes (with their hash when {@link stampNeedsHash}), on the stats taken on their open file before
   * they were read.
   */
  stamp: FileStamp;
}

/**
 * Reads the whole regular file at `filePath` on `fs` and stamps what was read: a writing tool checks the read state on this
 * stamp and hands it to `applyFileChange`, so the bytes the change is computed from are hashed once, and the check
 * judges those very bytes rather than a second look at a file that may have changed since. They are hashed even when
 * the file's stats are those of the read state: a write through a shared memory mapping moves neither time
 * (docs/read-state.md). A path that is missing or not a regular file yields why, and nothing is read from it.
 */
export async function readStampedFile(
  fs: FileSystem,
  filePath: string,
): Promise<StampedBytes | NotRegularFile> {
  const opened = await openRegularFile(fs, filePath);
  if (typeof opened === 'string') return opened;
  try {
    // Taken before the bytes are read, so a change while they are read makes the stamp older, never newer.
    const stats = opened.stats;
    // One byte more than the size: a file that grew since the stat is read whole, and its hash then disagrees. The
    // hash is taken of the bytes as they come in, while the rest are still being read.
    const hashed = stampNeedsHash(stats);
    let hasher: Hash | undefined;
    const bytes = await readHandleConsuming(opened.handle, stats.size + 1, () => {
      if (!hashed) return () => undefined;
      const started = createContentHasher();
      hasher = started;
      return (piece) => started.update(piece);
    });
    return { bytes, stamp: stampOfStats(stats, hasher?.digest('hex')) };
  } finally {
    await opened.handle.close();
  }
}

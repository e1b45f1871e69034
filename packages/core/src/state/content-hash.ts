import { createHash, type Hash } from 'node:crypto';
import { openRegularFileOrThrow } from '../fs/regular-file.js';

/**
 * Files up to this size (64 MiB) carry a content hash in their read state (docs/read-state.md). Hashing costs more than
 * reading (SHA-256 runs at about a third of the speed of a page-cache read), so a bigger file is told apart by what
 * the file system says of it (size, times, inode) instead.
 */
export const CONTENT_HASH_LIMIT_BYTES = 64 << 20;

const HASH_ALGORITHM = 'sha256';

/**
 * An incremental hasher of the content hash read-state stamps use: feed it a file's bytes in order (as a line scan
 * sees them) and `digest('hex')` equals {@link hashBytes} of the whole.
 */
export function createContentHasher(): Hash {
  return createHash(HASH_ALGORITHM);
}

/** Content hash used by read-state stamps (hex SHA-256). */
export function hashBytes(data: Uint8Array): string {
  return createContentHasher().update(data).digest('hex');
}

/**
 * {@link hashBytes} of a regular file, streamed so a large file is never held in memory. A path that is missing or
 * not a regular file (a FIFO would never end) is thrown as ENOENT / EISDIR.
 */
export async function hashFile(filePath: string): Promise<string> {
  const file = await openRegularFileOrThrow(filePath);
  const hash = createContentHasher();
  // The stream closes the handle when it ends or fails.
  for await (const chunk of file.handle.createReadStream()) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

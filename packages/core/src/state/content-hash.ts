import type { Hash } from 'node:crypto';
import type { FileSystem } from '../fs/file-system.js';
import { nodeCrypto } from '../fs/load-on-use.js';
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
  return nodeCrypto().createHash(HASH_ALGORITHM);
}

/** Content hash used by read-state stamps (hex SHA-256). */
export function hashBytes(data: Uint8Array): string {
  return createContentHasher().update(data).digest('hex');
}

/** Bytes hashed at a time by {@link hashFile}. */
const HASH_READ_BYTES = 1 << 20;

/**
 * {@link hashBytes} of a regular file on `fs`, read in chunks so a large file is never held in memory. A path that is
 * missing or not a regular file (a FIFO would never end) is thrown as ENOENT / EISDIR.
 */
export async function hashFile(fs: FileSystem, filePath: string): Promise<string> {
  const { handle } = await openRegularFileOrThrow(fs, filePath);
  try {
    const hash = createContentHasher();
    const buffer = Buffer.allocUnsafe(HASH_READ_BYTES);
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

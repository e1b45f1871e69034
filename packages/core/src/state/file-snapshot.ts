import { createHash, type Hash } from 'node:crypto';
import { openRegularFileOrThrow } from '../fs/regular-file.js';

/** What the session knows about a file's content at one moment: enough to tell later whether it changed. */
export interface FileSnapshot {
  /** Modification time in milliseconds (fractional on file systems with finer timestamps). */
  mtimeMs: number;
  /** Size in bytes. */
  size: number;
  /** {@link hashBytes} of the content. */
  hash: string;
}

const HASH_ALGORITHM = 'sha256';

/**
 * An incremental hasher of the content hash read-state snapshots use: feed it a file's bytes in order (as a line scan
 * sees them) and `digest('hex')` equals {@link hashBytes} of the whole.
 */
export function createContentHasher(): Hash {
  return createHash(HASH_ALGORITHM);
}

/** Content hash used by read-state snapshots (hex SHA-256). */
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

/** A snapshot of `data`, taken with the `stats` of the file it was read from. */
export function snapshotOf(data: Uint8Array, stats: { mtimeMs: number; size: number }): FileSnapshot {
  return { mtimeMs: stats.mtimeMs, size: stats.size, hash: hashBytes(data) };
}

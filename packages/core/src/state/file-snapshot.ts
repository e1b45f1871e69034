import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

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

/** Content hash used by read-state snapshots (hex SHA-256). */
export function hashBytes(data: Uint8Array): string {
  return createHash(HASH_ALGORITHM).update(data).digest('hex');
}

/** {@link hashBytes} of a file, streamed so a large file is never held in memory. */
export async function hashFile(filePath: string): Promise<string> {
  const hash = createHash(HASH_ALGORITHM);
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A snapshot of `data`, taken with the `stats` of the file it was read from. */
export function snapshotOf(data: Uint8Array, stats: { mtimeMs: number; size: number }): FileSnapshot {
  return { mtimeMs: stats.mtimeMs, size: stats.size, hash: hashBytes(data) };
}

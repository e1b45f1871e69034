import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openRegularFile, type NotRegularFile } from '../fs/regular-file.js';
import { CONTENT_HASH_LIMIT_BYTES, createContentHasher, hashBytes } from './content-hash.js';

/**
 * What tells one version of a file from another (docs/read-state.md): what the file system says of it, to the
 * nanosecond, and its content hash when it is small enough to hash. The inode's change time cannot be set back by a
 * user-space tool, so a rewrite that keeps the size and restores the modification time still shows; the hash shows
 * a change even where the file system's clock is too coarse to. Times, inode and device are decimal strings (they
 * exceed what a number holds exactly), so a stamp survives `JSON.stringify`.
 */
export interface FileStamp {
  /** Size in bytes. */
  size: number;
  /** Modification time, nanoseconds since the epoch. */
  mtimeNs: string;
  /** Inode change time (content, metadata or a rename), nanoseconds since the epoch. */
  ctimeNs: string;
  /** Inode number. */
  ino: string;
  /** Device the file is on. */
  dev: string;
  /** {@link hashBytes} of the content; present exactly when the file holds at most {@link CONTENT_HASH_LIMIT_BYTES}. */
  hash?: string;
}

/** What the read state records about a file: its {@link FileStamp} when it was read or written. */
export type FileSnapshot = FileStamp;

/** The fields of `stat({ bigint: true })` a stamp is made of. */
export type StampStats = Pick<BigIntStats, 'size' | 'mtimeNs' | 'ctimeNs' | 'ino' | 'dev'>;

/** The stamp of a file with these `stats` (from `stat` or `handle.stat` with `{ bigint: true }`) and content `hash`. */
export function stampOfStats(stats: StampStats, hash?: string): FileStamp {
  const stamp: FileStamp = {
    size: Number(stats.size),
    mtimeNs: stats.mtimeNs.toString(),
    ctimeNs: stats.ctimeNs.toString(),
    ino: stats.ino.toString(),
    dev: stats.dev.toString(),
  };
  if (hash !== undefined) stamp.hash = hash;
  return stamp;
}

/**
 * The stamp of a file whose whole content is `data`, with the `stats` (bigint) taken on its descriptor before it was
 * read; hashed when it is small enough.
 */
export function snapshotOf(data: Uint8Array, stats: StampStats): FileStamp {
  return stampOfStats(stats, data.length <= CONTENT_HASH_LIMIT_BYTES ? hashBytes(data) : undefined);
}

const HASH_CHUNK_BYTES = 1 << 20;

/**
 * The stamp of the file open on `handle`: its `fstat`, taken first, so a change made while the content is hashed
 * makes the stamp disagree with the file rather than hide, then the hash of its first `size` bytes when it is small
 * enough, read in chunks from offset 0 (the handle's own position is left alone).
 */
export async function stampOfHandle(handle: FileHandle): Promise<FileStamp> {
  const stats = await handle.stat({ bigint: true });
  const size = Number(stats.size);
  if (size > CONTENT_HASH_LIMIT_BYTES) return stampOfStats(stats);
  const hasher = createContentHasher();
  const buffer = Buffer.allocUnsafe(Math.min(HASH_CHUNK_BYTES, Math.max(1, size)));
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    hasher.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return stampOfStats(stats, hasher.digest('hex'));
}

/**
 * The stamp of the regular file at `filePath` ({@link stampOfHandle}), decided on the opened descriptor; `'missing'`
 * or `'not-a-file'` when there is none.
 */
export async function stampOf(filePath: string): Promise<FileStamp | NotRegularFile> {
  const opened = await openRegularFile(filePath);
  if (typeof opened === 'string') return opened;
  try {
    return await stampOfHandle(opened.handle);
  } finally {
    await opened.handle.close();
  }
}

/**
 * Whether two stamps are of the same file version: every file-system field equal, and the hashes too when both have
 * one. (Two stamps without a hash compare by the file system alone, as the line index of ReadFile does.)
 */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return (
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs &&
    a.ino === b.ino &&
    a.dev === b.dev &&
    (a.hash === undefined || b.hash === undefined || a.hash === b.hash)
  );
}

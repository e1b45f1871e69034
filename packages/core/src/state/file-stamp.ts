import type { FileStats, FileSystem, OpenFile } from '../fs/file-system.js';
import { openRegularFile, type NotRegularFile } from '../fs/regular-file.js';
import { CONTENT_HASH_LIMIT_BYTES, createContentHasher, hashBytes } from './content-hash.js';

/**
 * What tells one version of a file from another (docs/read-state.md): what the file system says of it, to the
 * nanosecond where it keeps that much, and its content hash. The inode's change time cannot be set back by a
 * user-space tool, so a rewrite that keeps the size and restores the modification time still shows; the hash shows
 * a change even where the file system's clock is too coarse to. A field the backend cannot know (SFTP has no inode,
 * device or change time) is absent, and such a file always carries its hash. Times, inode and device are decimal
 * strings (they exceed what a number holds exactly), so a stamp survives `JSON.stringify`.
 */
export interface FileStamp {
  /** Size in bytes. */
  size: number;
  /** Modification time, nanoseconds since the epoch (as fine as the backend keeps it). */
  mtimeNs: string;
  /** Inode change time (content, metadata or a rename), nanoseconds since the epoch; absent where unknown. */
  ctimeNs?: string;
  /** Inode number; absent where unknown. */
  ino?: string;
  /** Device the file is on; absent where unknown. */
  dev?: string;
  /**
   * {@link hashBytes} of the content: present when the file holds at most {@link CONTENT_HASH_LIMIT_BYTES}, and
   * whatever its size when the stamp has no change time or inode ({@link stampNeedsHash}).
   */
  hash?: string;
}

/** What the read state records about a file: its {@link FileStamp} when it was read or written. */
export type FileSnapshot = FileStamp;

/** The fields of a backend's {@link FileStats} a stamp is made of. */
export type StampStats = Pick<FileStats, 'size' | 'mtimeMs' | 'mtimeNs' | 'ctimeNs' | 'ino' | 'dev'>;

/**
 * Whether a stamp of a file with these stats (or this stamp) must carry the content hash: the file is small enough to
 * hash cheaply, or the backend reports no change time or no inode, so that only the hash (and the size) can tell a
 * rewrite that kept the modification time, or one within the same second of a coarse clock.
 */
export function stampNeedsHash(stats: { size: number; ctimeNs?: unknown; ino?: unknown }): boolean {
  return stats.size <= CONTENT_HASH_LIMIT_BYTES || stats.ctimeNs === undefined || stats.ino === undefined;
}

/** Modification time in nanoseconds: the backend's own, else its milliseconds (fractions kept to the nanosecond). */
function mtimeNsOf(stats: StampStats): bigint {
  if (stats.mtimeNs !== undefined) return stats.mtimeNs;
  const wholeMs = Math.floor(stats.mtimeMs);
  return BigInt(wholeMs) * 1_000_000n + BigInt(Math.round((stats.mtimeMs - wholeMs) * 1_000_000));
}

/** The stamp of a file with these `stats` (from `fs.stat` or `handle.stat()`) and content `hash`. */
export function stampOfStats(stats: StampStats, hash?: string): FileStamp {
  const stamp: FileStamp = { size: stats.size, mtimeNs: mtimeNsOf(stats).toString() };
  if (stats.ctimeNs !== undefined) stamp.ctimeNs = stats.ctimeNs.toString();
  if (stats.ino !== undefined) stamp.ino = stats.ino.toString();
  if (stats.dev !== undefined) stamp.dev = stats.dev.toString();
  if (hash !== undefined) stamp.hash = hash;
  return stamp;
}

/**
 * The stamp of a file whose whole content is `data`, with the `stats` taken on the open file before it was read;
 * hashed when it is small enough, or when the stats alone cannot tell versions apart ({@link stampNeedsHash}).
 */
export function snapshotOf(data: Uint8Array, stats: StampStats): FileStamp {
  const hashed = stampNeedsHash({ size: data.length, ctimeNs: stats.ctimeNs, ino: stats.ino });
  return stampOfStats(stats, hashed ? hashBytes(data) : undefined);
}

const HASH_CHUNK_BYTES = 1 << 20;

/**
 * The stamp of the file open on `handle`: its stats, taken first, so a change made while the content is hashed
 * makes the stamp disagree with the file rather than hide, then the hash of its first `size` bytes when the stamp
 * needs one ({@link stampNeedsHash}), read in chunks from offset 0.
 */
export async function stampOfHandle(handle: OpenFile): Promise<FileStamp> {
  const stats = await handle.stat();
  const size = stats.size;
  if (!stampNeedsHash(stats)) return stampOfStats(stats);
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
 * The stamp of the regular file at `filePath` on `fs` ({@link stampOfHandle}), decided on the opened file;
 * `'missing'` or `'not-a-file'` when there is none.
 */
export async function stampOf(fs: FileSystem, filePath: string): Promise<FileStamp | NotRegularFile> {
  const opened = await openRegularFile(fs, filePath);
  if (typeof opened === 'string') return opened;
  try {
    return await stampOfHandle(opened.handle);
  } finally {
    await opened.handle.close();
  }
}

/**
 * Whether two stamps are of the same file version: size and modification time equal, every other field that both
 * stamps have equal too (a backend that knows no inode or change time leaves them out), and the hashes when both have
 * one. (Two stamps without a hash compare by the file system alone, as the line index of ReadFile does.)
 */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return (
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    bothEqual(a.ctimeNs, b.ctimeNs) &&
    bothEqual(a.ino, b.ino) &&
    bothEqual(a.dev, b.dev) &&
    bothEqual(a.hash, b.hash)
  );
}

/** Equal, or unknown on one side. */
function bothEqual(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

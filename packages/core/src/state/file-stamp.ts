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
  /**
   * When the stats were taken: the local clock (`Date.now()`, read just before them), in nanoseconds since the epoch.
   * Present only with a change time and an inode: it lets a later look skip the content hash of a file whose stamp is
   * unchanged since a settled look ({@link unchangedSinceSettled}). It is no part of what tells versions apart.
   */
  seenNs?: string;
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

/**
 * The stamp of a file with these `stats` (from `fs.stat` or `handle.stat()`) and content `hash`; `seenMs` is the local
 * clock (`Date.now()`) read just before the stats were taken, when the caller read it.
 */
export function stampOfStats(stats: StampStats, hash?: string, seenMs?: number): FileStamp {
  const stamp: FileStamp = { size: stats.size, mtimeNs: mtimeNsOf(stats).toString() };
  if (stats.ctimeNs !== undefined) stamp.ctimeNs = stats.ctimeNs.toString();
  if (stats.ino !== undefined) stamp.ino = stats.ino.toString();
  if (stats.dev !== undefined) stamp.dev = stats.dev.toString();
  if (hash !== undefined) stamp.hash = hash;
  if (seenMs !== undefined && stats.ctimeNs !== undefined && stats.ino !== undefined) {
    stamp.seenNs = (BigInt(Math.floor(seenMs)) * 1_000_000n).toString();
  }
  return stamp;
}

/**
 * How long before a look a file must have last changed for the look to be settled ({@link unchangedSinceSettled}):
 * more than one tick of the clock the file system stamps changes with. A change time with sub-centisecond digits
 * comes from a fine clock, whose tick is at most 10 ms (Linux's coarse clock at HZ=100), and twice that is asked; one
 * without them may come from a file system that keeps whole seconds, or two (FAT), and then two seconds are.
 */
const SETTLED_FINE_NS = 20_000_000n;
const SETTLED_COARSE_NS = 2_000_000_000n;

/**
 * Whether a file whose `known` stamp carries a hash may be given that hash without reading its content again, when
 * the stats taken now (`stats`, the local clock read just before them `nowMs`) are all the same as `known`'s: size,
 * both times to the nanosecond, inode and device (docs/read-state.md). Git's racily-clean rule: a write changes the
 * change time to the clock's time of that write, so a write after a look that came more than a tick after the file's
 * last change cannot leave the change time as it was. A look within a tick of the change might have been followed by
 * a second write in the same tick, whose stats are the same; that look is not settled, and the file is hashed. The
 * clock set back since the look (now earlier than it) may give a later write the same time again: hashed too. A
 * backend without change times or inodes (SFTP) gives no `seenNs`, and its files are always hashed.
 */
export function unchangedSinceSettled(known: FileStamp, stats: StampStats, nowMs: number): boolean {
  if (known.hash === undefined || known.seenNs === undefined || known.ctimeNs === undefined) return false;
  const { ctimeNs, ino } = stats;
  if (ctimeNs === undefined || ino === undefined || known.ino === undefined) return false;
  if (
    known.size !== stats.size ||
    known.mtimeNs !== mtimeNsOf(stats).toString() ||
    known.ctimeNs !== ctimeNs.toString() ||
    known.ino !== ino.toString() ||
    known.dev !== stats.dev?.toString()
  ) {
    return false;
  }
  const seenNs = BigInt(known.seenNs);
  if (BigInt(Math.floor(nowMs)) * 1_000_000n < seenNs) return false;
  const mtimeNs = BigInt(known.mtimeNs);
  const changedNs = ctimeNs > mtimeNs ? ctimeNs : mtimeNs;
  const margin = ctimeNs % 10_000_000n === 0n ? SETTLED_COARSE_NS : SETTLED_FINE_NS;
  return seenNs - changedNs > margin;
}

/**
 * The stamp of a file whose whole content is `data`, with the `stats` taken on the open file before it was read (and
 * `seenMs`, the clock read just before them, when the caller has it); hashed when it is small enough, or when the
 * stats alone cannot tell versions apart ({@link stampNeedsHash}).
 */
export function snapshotOf(data: Uint8Array, stats: StampStats, seenMs?: number): FileStamp {
  const hashed = stampNeedsHash({ size: data.length, ctimeNs: stats.ctimeNs, ino: stats.ino });
  return stampOfStats(stats, hashed ? hashBytes(data) : undefined, seenMs);
}

const HASH_CHUNK_BYTES = 1 << 20;

/**
 * The stamp of the file open on `handle`: its stats, taken first, so a change made while the content is hashed
 * makes the stamp disagree with the file rather than hide, then the hash of its first `size` bytes when the stamp
 * needs one ({@link stampNeedsHash}), read in chunks from offset 0.
 */
export async function stampOfHandle(handle: OpenFile): Promise<FileStamp> {
  const seenMs = Date.now();
  const stats = await handle.stat();
  const size = stats.size;
  if (!stampNeedsHash(stats)) return stampOfStats(stats, undefined, seenMs);
  const hasher = createContentHasher();
  const buffer = Buffer.allocUnsafe(Math.min(HASH_CHUNK_BYTES, Math.max(1, size)));
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    hasher.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return stampOfStats(stats, hasher.digest('hex'), seenMs);
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

import path from 'node:path';
import { flushRenames, renameTempOver } from './rename-temp.js';
import { resolveLinkTarget, type LinkTarget } from './resolve-link-target.js';
import { atomicTempName } from './temp-files.js';
import {
  atomicReplaceUnavailableErrnoText,
  inPlaceUnrestoredText,
  notRegularFileErrnoText,
} from '../errors.js';
import { errnoCode, errnoError, hasErrno } from '../fs/errno.js';
import type { FileStats, FileSystem, OpenFile } from '../fs/file-system.js';
import { pathApiFor } from '../path/platform-path.js';

/**
 * Content too large to hold in memory, written by the caller into the file it is given (the temp file, or, for a
 * file with several hard links, a temp file that is then copied over the target in place). `size` is the number of
 * bytes `writeTo` writes.
 */
export interface StreamedContent {
  /** Bytes `writeTo` writes. */
  size: number;
  /** Writes the whole content into `handle`, from offset 0. */
  writeTo(handle: OpenFile): Promise<void>;
}

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Checked before the temp file is created and again just before it replaces the target. */
  signal?: AbortSignal;
  /**
   * Runs once the new content is ready, right before it replaces the target (or, for a file with several hard
   * links, before the target is overwritten); throwing stops the write and leaves the target untouched. Where the
   * backend carries out requests in order (`capabilities.requestsInOrder`), it starts as soon as the temp file's flush
   * is sent rather than answered: what it asks the backend is still carried out after the flush.
   */
  beforeCommit?: () => Promise<void>;
  /**
   * Runs once the target holds the new content, before the directory is flushed (a lock may be let go then). Where
   * the backend carries out requests in order, it runs as soon as the rename is sent, with the rename's outcome to
   * come: what it asks is carried out after the rename.
   */
  afterCommit?: (landed?: Promise<unknown>) => void;
  /**
   * Runs, synchronously, once the new content's flush is sent and before its answer is awaited: work on the written
   * bytes (hashing them) then fills the time the disk takes instead of following it.
   */
  whileFlushing?: () => void;
  /**
   * `resolveLinkTarget(fs, filePath)`, when the caller started it already (beside its own last look at the file, under
   * its lock): the file the write lands on, and what is there.
   */
  linkTarget?: Promise<LinkTarget>;
  /**
   * The bytes the target holds now, exactly, when the caller has them: a rewrite in place (a file with several hard
   * links) that fails part way writes them back, so the target is left as it was.
   */
  previous?: Uint8Array;
}

/**
 * A rewrite in place failed part way, and so did writing the old bytes back: the file may hold part of its new
 * content. `code` is the first failure's; the message is its own, then what the file may hold.
 */
export class InPlaceUnrestoredError extends Error {
  readonly code: string | undefined;

  constructor(
    override readonly cause: unknown,
    target: string,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)}; ${inPlaceUnrestoredText(target)}`);
    this.name = 'InPlaceUnrestoredError';
    this.code = errnoCode(cause);
  }
}

// Writes data[start, end) at `position`, looping over short writes.
async function writeRange(handle: OpenFile, data: Uint8Array, start: number, end: number, position: number) {
  let offset = start;
  while (offset < end) {
    const { bytesWritten } = await handle.write(data, offset, end - offset, position + (offset - start));
    offset += bytesWritten;
  }
}

/** Bytes copied at a time from a streamed temp file over a hard-linked target. */
const COPY_CHUNK_BYTES = 8 << 20;

/** Writes bytes [start, end) of the new content at the same offsets of `handle`, from memory or from a file. */
type RangeWriter = (handle: OpenFile, start: number, end: number) => Promise<void>;

function rangesOfBytes(data: Uint8Array): RangeWriter {
  return (handle, start, end) => writeRange(handle, data, start, end, start);
}

// The streamed content was first written whole to a temp file (`source`): it is copied from there, chunk by chunk.
function rangesOfFile(source: OpenFile): RangeWriter {
  return async (handle, start, end) => {
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(COPY_CHUNK_BYTES, end - start)));
    for (let at = start; at < end;) {
      const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, end - at), at);
      if (bytesRead === 0) throw new Error('The temp file ended early.');
      await writeRange(handle, buffer, 0, bytesRead, at);
      at += bytesRead;
    }
  };
}

// Several names share this inode: renaming would split them, so the shared content is rewritten in place. The part
// beyond the old end is written first: if the disk is full, that fails before any old byte was overwritten, and
// the file is cut back to its old size. A failure once old bytes may have been overwritten writes `previous` back,
// when the caller has it.
async function overwriteInPlace(
  fs: FileSystem,
  filePath: string,
  size: number,
  writeBytes: RangeWriter,
  oldSize: number,
  options: AtomicWriteOptions,
): Promise<void> {
  await options.beforeCommit?.();
  const handle = await fs.open(filePath, 'update');
  // Whether the file may no longer hold what it held: a growth cut off again leaves it as it was.
  let changed = false;
  try {
    if (size > oldSize) {
      try {
        await writeBytes(handle, oldSize, size);
      } catch (error) {
        const cut = await handle.truncate(oldSize).then(
          () => true,
          () => false,
        );
        changed = !cut;
        throw error;
      }
    }
    changed = true;
    await writeBytes(handle, 0, Math.min(oldSize, size));
    await handle.truncate(size);
    await flushWith(handle, options.whileFlushing);
  } catch (error) {
    await handle.close().catch(() => undefined);
    if (changed && options.previous) await putBackInPlace(fs, filePath, options.previous, error);
    throw error;
  }
  await handle.close();
  options.afterCommit?.();
}

// The same rewrite commitFileSet's rollback makes of a file it rewrote in place. When it fails too (a connection
// gone), the file may be part new: the error says so, as a patch names a file it could not restore.
async function putBackInPlace(fs: FileSystem, filePath: string, previous: Uint8Array, error: unknown) {
  try {
    await overwriteBytesInPlace(fs, filePath, previous);
  } catch {
    throw new InPlaceUnrestoredError(error, filePath);
  }
}

// A streamed change of a hard-linked file: its new content is produced in a temp file beside it first (it is
// usually read from the target itself, which must not change while it is read), then copied over it in place.
async function overwriteInPlaceStreamed(
  fs: FileSystem,
  filePath: string,
  content: StreamedContent,
  oldSize: number,
  options: AtomicWriteOptions,
): Promise<void> {
  const tempPath = path.join(path.dirname(filePath), atomicTempName(path.basename(filePath)));
  const temp = await fs.create(tempPath, 0o600);
  try {
    await content.writeTo(temp);
    options.signal?.throwIfAborted();
    await overwriteInPlace(fs, filePath, content.size, rangesOfFile(temp), oldSize, options);
  } finally {
    await temp.close();
    await fs.unlink(tempPath).catch(() => undefined);
  }
}

/** Whether the new file must be given the old one's owner: it is known, and may differ from the writer's. */
function mayNeedOwner(
  fs: FileSystem,
  existing: FileStats,
): existing is FileStats & { uid: number; gid: number } {
  if (existing.uid === undefined || existing.gid === undefined) return false;
  // On this host, a file this process creates is its own: only another owner needs setting.
  if (!fs.capabilities.localProcesses) return true;
  return existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.();
}

/**
 * Gives an open file the permission bits and the owner asked (either may be absent), in one call where the backend
 * has one for both ({@link OpenFile.setModeAndOwner}); an owner that cannot be given is not, as with `chown`.
 */
export async function setModeAndOwner(
  handle: OpenFile,
  mode: number | undefined,
  owner: { uid: number; gid: number } | undefined,
): Promise<void> {
  if (mode !== undefined && owner && handle.setModeAndOwner) return handle.setModeAndOwner(mode, owner);
  if (mode !== undefined) await handle.chmod(mode);
  if (owner) await handle.chown(owner.uid, owner.gid).catch(() => undefined);
}

/** Flushes `handle`, running `meanwhile` once the flush is sent; the flush is awaited even when `meanwhile` throws. */
async function flushWith(handle: OpenFile, meanwhile: (() => void) | undefined): Promise<void> {
  const flushing = handle.sync();
  try {
    meanwhile?.();
  } finally {
    await flushing;
  }
}

/** What {@link writeTempBeside} gives the temp file besides its content. */
export interface TempFileOptions {
  /** Its exact permission bits (without: the backend's default for a new file, `0o666` trimmed by its umask). */
  mode?: number;
  /** Its owner, set where the backend and the caller's rights allow. */
  owner?: { uid: number; gid: number };
  /** Called once its flush is asked for, before the answer is awaited. */
  flushSent?: () => void;
}

/**
 * Writes a new temp file beside `target` on `fs` (same directory; exclusive create, unpredictable name): `fill` writes
 * its content, then it is flushed and closed, and its path returned. On any failure it is removed again. The first
 * half of every atomic replace: the caller renames it over the target.
 */
export async function writeTempBeside(
  fs: FileSystem,
  target: string,
  fill: (file: OpenFile) => Promise<void>,
  options: TempFileOptions = {},
): Promise<string> {
  const paths = pathApiFor(fs.platform);
  const tempPath = paths.join(paths.dirname(target), atomicTempName(paths.basename(target)));
  let handle: OpenFile;
  try {
    handle = await fs.create(tempPath, options.mode ?? 0o666);
  } catch (error) {
    // A transport that failed (a dropped connection) may have lost the answer of a create that was made: the name is
    // this process's alone, so whatever is there is that file.
    if (hasErrno(error, 'ECONNRESET')) await fs.unlink(tempPath).catch(() => undefined);
    throw error;
  }
  let written = false;
  try {
    // The umask trimmed the mode at creation; give the new file exactly the bits asked and, when we may, the owner.
    await setModeAndOwner(handle, options.mode, options.owner);
    await fill(handle);
    await flushWith(handle, options.flushSent);
    written = true;
  } finally {
    await handle.close().catch(() => undefined);
    if (!written) await fs.unlink(tempPath).catch(() => undefined);
  }
  return tempPath;
}

/** Writes all of `bytes` from offset 0 of `file`, looping over short writes. */
export function writeAllBytes(file: OpenFile, bytes: Uint8Array): Promise<void> {
  return writeRange(file, bytes, 0, bytes.length, 0);
}

/**
 * Rewrites the file at `filePath` in place with `bytes` (a file with several hard links: a rename would split them),
 * the growth first, so a full disk fails before any old byte is overwritten. With `mode`, the file's permission bits
 * are set to it afterwards where they differ (a rewind puts back a checkpoint's; they are the file's, all its names').
 */
export async function overwriteBytesInPlace(
  fs: FileSystem,
  filePath: string,
  bytes: Uint8Array,
  mode?: number,
): Promise<void> {
  const old = await fs.stat(filePath);
  await overwriteInPlace(fs, filePath, bytes.length, rangesOfBytes(bytes), old.size, {});
  if (mode !== undefined && (old.mode & 0o7777) !== mode) await fs.chmod(filePath, mode);
}

async function replaceThroughTemp(
  fs: FileSystem,
  filePath: string,
  data: Uint8Array | StreamedContent,
  existing: FileStats | undefined,
  options: AtomicWriteOptions,
) {
  let checking: Promise<void> | undefined;
  const check = () => {
    checking ??= (async () => {
      options.signal?.throwIfAborted();
      await options.beforeCommit?.();
    })();
    // A flush that fails ends the write with its own failure: this one is then nobody's.
    checking.catch(() => undefined);
    return checking;
  };
  const tempPath = await writeTempBeside(
    fs,
    filePath,
    (handle) => (data instanceof Uint8Array ? writeAllBytes(handle, data) : data.writeTo(handle)),
    {
      ...(existing ? { mode: existing.mode & 0o7777 } : {}),
      ...(existing && mayNeedOwner(fs, existing) ? { owner: { uid: existing.uid, gid: existing.gid } } : {}),
      flushSent: () => {
        if (fs.capabilities.requestsInOrder) void check();
        options.whileFlushing?.();
      },
    },
  );
  try {
    await check();
  } catch (error) {
    await fs.unlink(tempPath).catch(() => undefined);
    throw error;
  }
  const renaming = renameTempOver(fs, tempPath, filePath);
  // On a backend that carries out requests in order, whatever is asked from here on happens after the rename.
  if (fs.capabilities.requestsInOrder) options.afterCommit?.(renaming);
  await renaming;
  if (!fs.capabilities.requestsInOrder) options.afterCommit?.();
  // Makes the rename itself durable, where the backend can.
  await flushRenames(fs, [path.dirname(filePath)]);
}

/**
 * Writes `data` to `filePath` on `fs` so that a crash leaves either the old or the new content, never a mix
 * (docs/writing.md): a temp file in the same directory (exclusive create, unpredictable name) is written, flushed and
 * renamed over the target, then the directory is flushed where the backend can. A backend whose rename cannot
 * replace a file atomically is refused (ENOSYS) rather than written in place. The target's permission bits are kept.
 * A symlink stays a link: the file at the end of its chain is written. A file with several hard links (where the
 * backend reports link counts) is rewritten in place so the links stay shared: a full disk still leaves it untouched
 * (the growth is written first), and so does any other failure when `options.previous` is given (it is written back;
 * when that fails too, {@link InPlaceUnrestoredError}), but a crash midway does not. On failure the temp file is
 * removed and the target is untouched. `data` may be {@link StreamedContent}, for a file too large to hold in memory.
 */
export async function writeFileAtomic(
  fs: FileSystem,
  filePath: string,
  data: Uint8Array | StreamedContent,
  options: AtomicWriteOptions = {},
): Promise<void> {
  options.signal?.throwIfAborted();
  if (!fs.capabilities.atomicReplace) throw errnoError('ENOSYS', atomicReplaceUnavailableErrnoText(fs.name));
  const { path: target, stats: existing } = await (options.linkTarget ?? resolveLinkTarget(fs, filePath));
  if (existing && !existing.isFile()) throw errnoError('EISDIR', notRegularFileErrnoText(filePath));
  if (existing?.nlink !== undefined && existing.nlink > 1) {
    if (data instanceof Uint8Array) {
      await overwriteInPlace(fs, target, data.length, rangesOfBytes(data), existing.size, options);
    } else {
      await overwriteInPlaceStreamed(fs, target, data, existing.size, options);
    }
    return;
  }
  await replaceThroughTemp(fs, target, data, existing, options);
}

import path from 'node:path';
import { fileLockedMessage, FileLockLostError } from '../errors.js';
import { backendClock } from '../fs/backend-clock.js';
import { hasErrno } from '../fs/errno.js';
import { nodeCrypto, nodeTimers } from '../fs/load-on-use.js';
import type { FileSystem, OpenFile } from '../fs/file-system.js';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { removeLeftGrave } from './grave.js';
import { buryLock, digGrave, removeHoldersGrave } from './lock-grave.js';
import { lockFilePath } from './lock-file-name.js';
import { LockSightings } from './lock-sightings.js';
import { atomicTempName } from './temp-files.js';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** Give up waiting for another holder after this long (default 10 000 ms). */
  timeoutMs?: number;
  /**
   * A lock not refreshed for this long is taken to be left by a crashed or suspended holder and broken (default
   * 30 000 ms; at least three ticks of the backend's clock). A holder refreshes its lock every third of this while
   * it holds it.
   */
  staleMs?: number;
  /**
   * When this process first saw each lock it waits on, kept across calls (the runtime keeps one): a lock on a host
   * whose clock this process cannot trust is judged stale by how long it has stayed unchanged here. Default: a new
   * record for this call alone.
   */
  sightings?: LockSightings;
  /**
   * The task changes nothing another writer could see before it calls `verify()` (applyFileChange's reads, and writes
   * a temp file of its own, until then): it then starts as soon as the lock file is created, while the lock's content
   * is written (one round trip less on a remote host), and `verify()` waits for that content. Should writing it fail,
   * `verify()` throws that failure, and the call ends with it.
   */
  readsBeforeVerify?: boolean;
  /**
   * Makes the lock file's directory again when it is gone as the lock is taken (the create fails with `ENOENT`): a
   * change of the runtime that wrote nothing removed the directories it had made (docs/writing.md). Called once; the
   * lock is then taken again.
   */
  remakeDirectory?: () => Promise<void>;
}

/** What the task of {@link withFileLock} can ask about the lock it runs under. */
export interface HeldFileLock {
  /**
   * Throws {@link FileLockLostError} when the lock is no longer this holder's: it was broken as stale (the holder
   * was suspended past `staleMs`) and maybe taken by another writer. Call it right before writing.
   */
  verify(): Promise<void>;
  /**
   * The task's last change is asked for (its commit): the lock is released from now on, beside what the task still
   * does (a flush of the directory, a stat of what it wrote), and removed once `landed` settles (the commit's outcome
   * known). `withFileLock` still waits for the release to end.
   */
  committed(landed?: Promise<unknown>): void;
}

/**
 * The token under which a lock this runtime may have made empty is kept in the sightings: its create failed with
 * `ECONNRESET`, the answer of one that was made lost with the connection, so it was never filled. Only an empty lock
 * is removed as that one.
 */
const UNFILLED = '';

/** A lock file holds `{pid}\n{token}\n`: far less than this. */
const LOCK_MAX_BYTES = 4096;

/** What a lock file says: `{pid}\n{token}\n` (the pid for diagnostics and dead-holder detection). */
interface LockContent {
  /** The file's text as read. */
  text: string;
  pid: number;
  /** `undefined` for a lock still being written, or one written by a version without tokens. */
  token: string | undefined;
  /** Whether the content was written completely (a lock is created first and filled just after). */
  complete: boolean;
  /** Its modification time, on the backend's clock. */
  mtimeMs: number;
}

async function readLock(fs: FileSystem, lockPath: string): Promise<LockContent | undefined> {
  let handle: OpenFile;
  try {
    handle = await fs.open(lockPath, 'read');
  } catch (error) {
    if (hasErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    const text = (await readHandleUpTo(handle, LOCK_MAX_BYTES, stats.size + 1)).toString('utf8');
    const [pidLine = '', token] = text.split('\n');
    const pid = Number.parseInt(pidLine, 10);
    return { text, pid, token: token || undefined, complete: text.endsWith('\n'), mtimeMs: stats.mtimeMs };
  } finally {
    await handle.close();
  }
}

function holderIsGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return hasErrno(error, 'ESRCH');
  }
}

/**
 * Whether a lock is abandoned. Everywhere: it stayed unchanged (same text, same modification time) for `staleMs` as
 * this process's clock measures from when it first saw it, so a remote clock that is off can neither break a live
 * lock nor keep a dead one. Where the lock is on this host (`localProcesses`), also when its modification time is
 * `staleMs` old (the same clock) or its holder's process is gone; a lock still being filled in has no pid to judge
 * yet, only its age counts.
 */
function isStale(
  fs: FileSystem,
  lockPath: string,
  lock: LockContent,
  staleMs: number,
  sightings: LockSightings,
): boolean {
  if (sightings.unchangedFor(lockPath, `${lock.mtimeMs}\n${lock.text}`) >= staleMs) return true;
  if (!fs.capabilities.localProcesses) return false;
  if (Date.now() - lock.mtimeMs >= staleMs) return true;
  return lock.complete && holderIsGone(lock.pid);
}

/**
 * Breaks the lock when its holder died or stopped refreshing it. It is first moved aside (one waiter wins the
 * rename); should what was moved be a newer lock taken after our look, it is put back unless someone took the place
 * (a hard link where the backend has them, else an exclusive create with the same content).
 */
async function breakIfStale(
  fs: FileSystem,
  lockPath: string,
  staleMs: number,
  sightings: LockSightings,
): Promise<void> {
  const seen = await readLock(fs, lockPath);
  if (seen === undefined) {
    sightings.forget(lockPath);
    return;
  }
  if (!isStale(fs, lockPath, seen, staleMs, sightings)) return;
  const doomed = path.join(path.dirname(lockPath), atomicTempName(path.basename(lockPath)));
  try {
    await fs.rename(lockPath, doomed);
  } catch (error) {
    // Released or broken by someone else meanwhile: try to take it again.
    if (hasErrno(error, 'ENOENT')) return;
    throw error;
  }
  sightings.forget(lockPath);
  try {
    const moved = await readLock(fs, doomed);
    if (moved !== undefined && moved.token !== seen.token) {
      if (fs.capabilities.linkCounts) await fs.link(doomed, lockPath).catch(() => undefined);
      else await createLock(fs, lockPath, moved.text).catch(() => undefined);
    } else if (moved?.token !== undefined) await removeHoldersGrave(fs, lockPath, moved.token);
  } finally {
    await fs.unlink(doomed).catch(() => undefined);
  }
}

/** Keeps a held lock's mtime fresh, so that no waiter ever judges a working holder stale. */
function keepFresh(fs: FileSystem, lockPath: string, token: string, staleMs: number): () => void {
  let busy = false;
  const timer = setInterval(
    () => {
      if (busy) return;
      busy = true;
      void readLock(fs, lockPath)
        .then(async (lock) => {
          if (lock?.token !== token) return;
          // On the clock that stamps the backend's files, as a new lock is, so that `cleanupStaleTempFiles` judges
          // its age on one clock: stamped with this machine's, a lock on a host whose clock is behind looked old.
          const now = (await backendClock(fs)) / 1000;
          await fs.utimes(lockPath, now, now);
        })
        .catch(() => undefined)
        .finally(() => (busy = false));
    },
    Math.max(1, Math.floor(staleMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

async function verifyOwner(fs: FileSystem, filePath: string, lockPath: string, token: string): Promise<void> {
  const lock = await readLock(fs, lockPath);
  if (lock?.token !== token) throw new FileLockLostError(filePath);
}

/** Swallows a settled promise's value or failure: a release kept in the sightings never rejects. */
const ignore = (): void => undefined;

/** Whether `lock` is the one holding `token` (one kept as {@link UNFILLED}: while it is empty). */
function holds(lock: LockContent, token: string): boolean {
  return token === UNFILLED ? lock.text === '' : lock.token === token;
}

/**
 * Removes the lock only while it is still ours: a lock broken as stale and taken by another writer stays. A transport
 * that failed on the way (`ECONNRESET`: a remote backend connects again on the next call) gets one more try, from the
 * look at the lock on (one kept as {@link UNFILLED} is removed only while empty). A lock that may still be there is
 * kept in `sightings`, to be removed by this runtime's next lock of any file: left behind, it would keep every writer
 * of the file waiting until it is judged stale. Where the backend carries out requests in the order sent
 * (`capabilities.requestsInOrder`), the lock goes through its grave ({@link buryLock}), made beside the look at the
 * lock, and the release is sent, not waited for: whatever this process asks of the backend next finds the lock gone,
 * and a failed removal is kept as above.
 */
async function release(
  fs: FileSystem,
  lockPath: string,
  token: string,
  sightings: LockSightings,
  landed?: Promise<unknown>,
): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    // The grave is made, and its making answered, before the rename into it is sent: were both left in a stopped
    // server, whoever breaks the lock would find no grave to remove, and the late rename would take the next lock.
    const digging = digGrave(fs, lockPath, token);
    // A look at the lock that fails first leaves this unawaited: its failure must not surface as unhandled.
    digging.catch(ignore);
    try {
      const lock = await readLock(fs, lockPath);
      const grave = await digging;
      if (lock === undefined || !holds(lock, token)) {
        if (grave !== undefined)
          sightings.releasing(lockPath, removeLeftGrave(fs, grave).then(ignore, ignore));
        return;
      }
      await landed?.catch(() => undefined);
      if (grave !== undefined) sightings.releasing(lockPath, buryLock(fs, lockPath, grave, token, sightings));
      else {
        const removing = fs.unlink(lockPath);
        if (!fs.capabilities.requestsInOrder) await removing;
        else {
          sightings.releasing(
            lockPath,
            removing.catch((error: unknown) => {
              if (!hasErrno(error, 'ENOENT')) sightings.leftBehind(lockPath, token);
            }),
          );
        }
      }
      return;
    } catch (error) {
      if (attempt === 0 && hasErrno(error, 'ECONNRESET')) continue;
      // A grave made for a release that did not happen would stay in the workspace until the next one.
      digging.then((grave) => (grave === undefined ? undefined : fs.rmdir(grave))).catch(ignore);
      break;
    }
  }
  sightings.leftBehind(lockPath, token);
}

/**
 * Creates the lock file exclusively; `undefined` when it already exists, else the filling of it with `content`, under
 * way. Should filling it fail (a full disk creates the file but refuses its content), the file just created is removed
 * before that failure is the filling's: nothing may be left to block every later writer.
 */
async function takeLock(
  fs: FileSystem,
  lockPath: string,
  content: string,
): Promise<{ filled: Promise<void> } | undefined> {
  let handle: OpenFile;
  try {
    handle = await fs.create(lockPath);
  } catch (error) {
    if (hasErrno(error, 'EEXIST')) return undefined;
    throw error;
  }
  const fill = async () => {
    try {
      const bytes = Buffer.from(content, 'utf8');
      for (let written = 0; written < bytes.length;) {
        written += (await handle.write(bytes, written, bytes.length - written, written)).bytesWritten;
      }
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.unlink(lockPath).catch(() => undefined);
      throw error;
    }
  };
  const filled = fill();
  // Its failure is the caller's to throw, whenever it asks.
  filled.catch(() => undefined);
  return { filled };
}

/** Creates the lock file exclusively and fills it; false when it already exists ({@link takeLock}). */
async function createLock(fs: FileSystem, lockPath: string, content: string): Promise<boolean> {
  const taken = await takeLock(fs, lockPath, content);
  if (!taken) return false;
  await taken.filled;
  return true;
}

/**
 * Runs `task` while holding an exclusive lock on `filePath` on `fs` that every runtime and every process using these
 * tools respects (a lock file created exclusively, holding a random token), so two agents cannot both check and then
 * write the same file. The lock is refreshed while held; a holder that was suspended long enough to lose it finds out
 * through `lock.verify()` before it writes.
 */
export async function withFileLock<T>(
  fs: FileSystem,
  filePath: string,
  task: (lock: HeldFileLock) => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Refreshes a third of this apart must move the lock's time, however coarse the backend's clock.
  const staleMs = Math.max(options.staleMs ?? 30_000, 3 * fs.capabilities.timeResolutionMs);
  const sightings = options.sightings ?? new LockSightings();
  const lockPath = lockFilePath(filePath);
  const token = nodeCrypto().randomBytes(16).toString('hex');
  const deadline = Date.now() + timeoutMs;
  let pause = 2;
  let filled: Promise<void>;
  let remakeDirectory = options.remakeDirectory;
  // The locks this runtime failed to release before (a dropped connection) are its own: removed at its next lock of
  // any file, the connection back by then, rather than left for every other writer of those files to wait out as
  // stale. One still held by its token only; one that cannot be removed yet is kept for the next lock again.
  await sightings.released(lockPath);
  for (const [leftPath, leftToken] of sightings.takeLeftBehind())
    await release(fs, leftPath, leftToken, sightings);
  for (;;) {
    let taken: Awaited<ReturnType<typeof takeLock>>;
    try {
      taken = await takeLock(fs, lockPath, `${process.pid}\n${token}\n`);
    } catch (error) {
      // Made or not, this runtime's next lock of any file removes it if it is there, empty.
      if (hasErrno(error, 'ECONNRESET')) sightings.leftBehind(lockPath, UNFILLED);
      if (!hasErrno(error, 'ENOENT') || remakeDirectory === undefined) throw error;
      const remake = remakeDirectory;
      remakeDirectory = undefined;
      await remake();
      continue;
    }
    if (taken) {
      filled = taken.filled;
      break;
    }
    await breakIfStale(fs, lockPath, staleMs, sightings);
    if (Date.now() > deadline) throw new Error(fileLockedMessage(filePath, lockPath));
    await nodeTimers().setTimeout(pause);
    pause = Math.min(pause * 2, 50);
  }
  if (!options.readsBeforeVerify) await filled;
  const stopRefreshing = keepFresh(fs, lockPath, token, staleMs);
  let releasing: Promise<void> | undefined;
  const releaseOnce = (landed?: Promise<unknown>) =>
    (releasing ??= (async () => {
      stopRefreshing();
      const held = await filled.then(
        () => true,
        () => false,
      );
      // A lock whose filling failed was removed then.
      if (held) await release(fs, lockPath, token, sightings, landed);
    })());
  try {
    const result = await task({
      verify: async () => {
        await filled;
        await verifyOwner(fs, filePath, lockPath, token);
      },
      committed: (landed) => void releaseOnce(landed),
    });
    await filled;
    return result;
  } finally {
    await releaseOnce();
  }
}

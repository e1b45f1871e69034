import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileLockedMessage, FileLockLostError } from '../errors.js';
import { hasErrno } from '../fs/errno.js';
import { lockFilePath } from './lock-file-name.js';
import { atomicTempName } from './temp-files.js';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** Give up waiting for another holder after this long (default 10 000 ms). */
  timeoutMs?: number;
  /**
   * A lock not refreshed for this long is taken to be left by a crashed or suspended holder and broken (default
   * 30 000 ms). A holder refreshes its lock every third of this while it holds it.
   */
  staleMs?: number;
}

/** What the task of {@link withFileLock} can ask about the lock it runs under. */
export interface HeldFileLock {
  /**
   * Throws {@link FileLockLostError} when the lock is no longer this holder's: it was broken as stale (the holder
   * was suspended past `staleMs`) and maybe taken by another writer. Call it right before writing.
   */
  verify(): Promise<void>;
}

/** What a lock file says: `{pid}\n{token}\n` (the pid for diagnostics and dead-holder detection). */
interface LockContent {
  pid: number;
  /** `undefined` for a lock still being written, or one written by a version without tokens. */
  token: string | undefined;
  /** Whether the content was written completely (a lock is created first and filled just after). */
  complete: boolean;
  mtimeMs: number;
}

async function readLock(lockPath: string): Promise<LockContent | undefined> {
  try {
    const [content, stats] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    const [pidLine = '', token] = content.split('\n');
    const pid = Number.parseInt(pidLine, 10);
    return { pid, token: token || undefined, complete: content.endsWith('\n'), mtimeMs: stats.mtimeMs };
  } catch (error) {
    if (hasErrno(error, 'ENOENT')) return undefined;
    throw error;
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

function isStale(lock: LockContent, staleMs: number): boolean {
  if (Date.now() - lock.mtimeMs >= staleMs) return true;
  // A lock still being filled in has no pid to judge yet; only its age counts.
  return lock.complete && holderIsGone(lock.pid);
}

/**
 * Breaks the lock when its holder died or stopped refreshing it. It is first moved aside (one waiter wins the
 * rename); should what was moved be a newer lock taken after our look, it is put back unless someone took the place.
 */
async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  const seen = await readLock(lockPath);
  if (seen === undefined || !isStale(seen, staleMs)) return;
  const doomed = path.join(path.dirname(lockPath), atomicTempName(path.basename(lockPath)));
  try {
    await fs.rename(lockPath, doomed);
  } catch (error) {
    // Released or broken by someone else meanwhile: try to take it again.
    if (hasErrno(error, 'ENOENT')) return;
    throw error;
  }
  try {
    const moved = await readLock(doomed);
    if (moved !== undefined && moved.token !== seen.token)
      await fs.link(doomed, lockPath).catch(() => undefined);
  } finally {
    await fs.unlink(doomed).catch(() => undefined);
  }
}

/** Keeps a held lock's mtime fresh, so that no waiter ever judges a working holder stale. */
function keepFresh(lockPath: string, token: string, staleMs: number): () => void {
  let busy = false;
  const timer = setInterval(
    () => {
      if (busy) return;
      busy = true;
      void readLock(lockPath)
        .then(async (lock) => {
          if (lock?.token !== token) return;
          const now = new Date();
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

async function verifyOwner(filePath: string, lockPath: string, token: string): Promise<void> {
  const lock = await readLock(lockPath);
  if (lock?.token !== token) throw new FileLockLostError(filePath);
}

/** Removes the lock only while it is still ours: a lock broken as stale and taken by another writer stays. */
async function release(lockPath: string, token: string): Promise<void> {
  const lock = await readLock(lockPath).catch(() => undefined);
  if (lock?.token === token) await fs.unlink(lockPath).catch(() => undefined);
}

/**
 * Creates the lock file with O_EXCL and fills it; false when it already exists. Should filling it fail (a full disk
 * creates the file but refuses its content), the file just created is removed before the error is thrown: nothing
 * may be left to block every later writer.
 */
async function createLock(lockPath: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await fs.open(lockPath, 'wx');
  } catch (error) {
    if (hasErrno(error, 'EEXIST')) return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.close();
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.unlink(lockPath).catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `task` while holding an exclusive lock on `filePath` that every runtime and every process using these tools
 * respects (a lock file created with O_EXCL, holding a random token), so two agents cannot both check and then write
 * the same file. The lock is refreshed while held; a holder that was suspended long enough to lose it finds out
 * through `lock.verify()` before it writes.
 */
export async function withFileLock<T>(
  filePath: string,
  task: (lock: HeldFileLock) => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const lockPath = lockFilePath(filePath);
  const token = randomBytes(16).toString('hex');
  const deadline = Date.now() + timeoutMs;
  let pause = 2;
  for (;;) {
    if (await createLock(lockPath, `${process.pid}\n${token}\n`)) break;
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline) throw new Error(fileLockedMessage(filePath, lockPath));
    await sleep(pause);
    pause = Math.min(pause * 2, 50);
  }
  const stopRefreshing = keepFresh(lockPath, token, staleMs);
  try {
    return await task({ verify: () => verifyOwner(filePath, lockPath, token) });
  } finally {
    stopRefreshing();
    await release(lockPath, token);
  }
}

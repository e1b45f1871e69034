import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// `.<name>.kimi-lock` beside the file it guards: hidden, and recognisable by cleanupStaleTempFiles.
const LOCK_SUFFIX = '.kimi-lock';
const LOCK_NAME = /^\..*\.kimi-lock$/s;

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** Give up waiting for another holder after this long (default 10 000 ms). */
  timeoutMs?: number;
  /** A lock older than this is taken to be left by a hung or crashed holder (default 30 000 ms). */
  staleMs?: number;
}

/** The lock file guarding `filePath`. */
export function lockFilePath(filePath: string): string {
  return path.join(path.dirname(filePath), `.${path.basename(filePath)}${LOCK_SUFFIX}`);
}

/** Whether `fileName` is a lock file of {@link withFileLock}. */
export function isLockFileName(fileName: string): boolean {
  return LOCK_NAME.test(fileName);
}

function holderIsGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

// Removes the lock when its holder died or it is too old. The rename makes sure only one waiter removes it.
async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  try {
    const [content, stats] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    if (!holderIsGone(Number.parseInt(content, 10)) && Date.now() - stats.mtimeMs < staleMs) return;
    const doomed = `${lockPath}.${process.pid}.${Date.now()}.stale`;
    await fs.rename(lockPath, doomed);
    await fs.unlink(doomed);
  } catch (error) {
    // Released or broken by someone else meanwhile: try to take it again.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Runs `task` while holding an exclusive lock on `filePath` that every runtime and every process using these tools
 * respects (a lock file created with O_EXCL), so two agents cannot both check and then write the same file.
 */
export async function withFileLock<T>(
  filePath: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const lockPath = lockFilePath(filePath);
  const deadline = Date.now() + timeoutMs;
  let pause = 2;
  for (;;) {
    try {
      await fs.writeFile(lockPath, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline) {
      throw new Error(`${filePath} is locked by another writer (${lockPath}); try again later.`);
    }
    await sleep(pause);
    pause = Math.min(pause * 2, 50);
  }
  try {
    return await task();
  } finally {
    await fs.unlink(lockPath).catch(() => undefined);
  }
}

import type { ToolRuntime } from '../runtime/runtime.js';
import { withFileLock, type HeldFileLock } from './file-lock.js';
import { LOCK_SIGHTINGS } from './lock-sightings.js';
import { runtimeLockKey } from './runtime-lock-key.js';

/** What the task of {@link withFileSetLocks} can ask about the locks it runs under. */
export interface HeldFileSetLocks {
  /**
   * Throws `FileLockLostError` (for the first path whose lock it finds lost) when a lock is no longer this holder's:
   * it was broken as stale (the holder was suspended past its stale time) and maybe taken by another writer, who may
   * have written since the task looked at the files. Call it right before the commit.
   */
  verify(): Promise<void>;
}

/**
 * Runs `task` holding this runtime's lock and the lock file of every path of a change to several files (ApplyPatch, a
 * rewind). The runtime's locks come first, one per file (a file with several hard links is one, whichever of its
 * names the change gives: `runtimeLockKey`), taken in sorted order; then the lock files, one at a time in the paths'
 * sorted order, so that two such changes never deadlock, in this runtime or across processes. The runtime's lock
 * sightings go with each: a lock file this runtime failed to release is removed by its next write of any file, not
 * left to block every writer until it is stale. A lock file lives beside its file: the directory of each path must be
 * there. A lock another writer holds past the wait throws, as {@link withFileLock} does.
 * Each lock file is taken once the one before it holds its token (a process killed meanwhile leaves at most one empty
 * lock file, whose holder cannot be told dead). Once the task ends, every lock is let go at once, not each after the
 * one taken after it. `remakeDirectory` makes the directories above a path again when its lock file finds them gone
 * (`FileLockOptions.remakeDirectory`).
 */
export async function withFileSetLocks<T>(
  runtime: ToolRuntime,
  paths: readonly string[],
  task: (locks: HeldFileSetLocks) => Promise<T>,
  remakeDirectory?: (filePath: string) => Promise<void>,
): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const keys = [...new Set(await Promise.all(sorted.map((file) => runtimeLockKey(runtime.fs, file))))].sort();
  const sightings = runtime.slot(LOCK_SIGHTINGS);
  const held: HeldFileLock[] = [];
  // Every lock file is read at once: on a remote host, one round trip for them all.
  const locks: HeldFileSetLocks = {
    verify: async () => {
      await Promise.all(held.map((lock) => lock.verify()));
    },
  };
  const runTask = async (): Promise<T> => {
    try {
      return await task(locks);
    } finally {
      // Each lock's release starts now, side by side, rather than each after the one taken after it.
      for (const lock of held) lock.committed();
    }
  };
  const takeFileLock = (index: number): Promise<T> => {
    if (index === sorted.length) return runTask();
    return withFileLock(
      runtime.fs,
      sorted[index]!,
      (lock) => {
        held.push(lock);
        return takeFileLock(index + 1);
      },
      {
        sightings,
        ...(remakeDirectory ? { remakeDirectory: () => remakeDirectory(sorted[index]!) } : {}),
      },
    );
  };
  const takeRuntimeLock = (index: number): Promise<T> =>
    index === keys.length
      ? takeFileLock(0)
      : runtime.locks.run(keys[index]!, () => takeRuntimeLock(index + 1));
  return takeRuntimeLock(0);
}

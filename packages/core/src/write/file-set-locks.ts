import type { ToolRuntime } from '../runtime/runtime.js';
import { withFileLock } from './file-lock.js';
import { LOCK_SIGHTINGS } from './lock-sightings.js';

/**
 * Runs `task` holding this runtime's lock and the lock file of every path of a change to several files (ApplyPatch, a
 * rewind), taken one at a time in one sorted order, so that two such changes never deadlock. The runtime's lock
 * sightings go with each: a lock file this runtime failed to release is removed by its next write of any file, not
 * left to block every writer until it is stale. A lock file lives beside its file: the directory of each path must be
 * there. A lock another writer holds past the wait throws, as {@link withFileLock} does.
 */
export async function withFileSetLocks<T>(
  runtime: ToolRuntime,
  paths: readonly string[],
  task: () => Promise<T>,
): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const sightings = runtime.slot(LOCK_SIGHTINGS);
  const take = (index: number): Promise<T> => {
    if (index === sorted.length) return task();
    const file = sorted[index]!;
    return runtime.locks.run(file, () =>
      withFileLock(runtime.fs, file, () => take(index + 1), { sightings }),
    );
  };
  return take(0);
}

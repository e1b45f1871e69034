import { isMissingPathError } from './errno.js';
import type { FileStats, FileSystem } from './file-system.js';
import { StatsTable } from './stats-table.js';

/** Paths stat'ed at once where the backend has no `lstatMany`. */
const CONCURRENCY = 32;

/**
 * The `lstat` of each path, a bounded number at a time: `undefined` where nothing is (`ENOENT`, `ENOTDIR`); rejects on
 * any other error.
 */
export async function lstatEachBounded(
  paths: readonly string[],
  lstat: (path: string) => Promise<FileStats>,
): Promise<Array<FileStats | undefined>> {
  const results = new Array<FileStats | undefined>(paths.length);
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      const index = next++;
      try {
        results[index] = await lstat(paths[index]!);
      } catch (error) {
        if (!isMissingPathError(error)) throw error;
        results[index] = undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, paths.length) }, lane));
  return results;
}

/** `base` and a path relative to it (`/`-separated; `''` is `base` itself) as one path. */
export function underBase(base: string, path: string): string {
  if (path === '') return base;
  return base.endsWith('/') ? base + path : `${base}/${path}`;
}

/**
 * The `lstat` of many paths below `base` at once (a walk of a whole workspace): the backend's `lstatMany` where it
 * has one, else its `lstat`, a bounded number at a time. `paths` are relative to `base` (`''` is `base` itself). One
 * entry per path, in a {@link StatsTable}: nothing where nothing is (`ENOENT`, `ENOTDIR`).
 */
export async function lstatMany(fs: FileSystem, base: string, paths: readonly string[]): Promise<StatsTable> {
  if (fs.lstatMany) return fs.lstatMany(base, paths);
  return StatsTable.of(await lstatEachBounded(paths, (path) => fs.lstat(underBase(base, path))));
}

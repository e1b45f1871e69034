import path from 'node:path';
import { backendClock } from '../fs/backend-clock.js';
import { hasErrno } from '../fs/errno.js';
import { nodeCrypto } from '../fs/load-on-use.js';
import type { FileSystem } from '../fs/file-system.js';
import { removeLeftGrave } from './grave.js';
import { isLockFileName } from './lock-file-name.js';
import { siblingName } from './sibling-name.js';

// `.<name>.kimi-tmp-<12 hex>`: hidden, tied to the file it replaces, and recognisable after a crash.
const TEMP_MARKER = '.kimi-tmp-';
const TEMP_NAME = /^\..*\.kimi-tmp-[0-9a-f]{12}$/s;

/** A fresh, unpredictable temp file name for replacing `targetName` in the same directory (fits any name). */
export function atomicTempName(targetName: string): string {
  return tempNameOf(targetName, nodeCrypto().randomBytes(6).toString('hex'));
}

/** The temp name beside `targetName` that `id` (12 hex digits) names, as {@link atomicTempName} makes them. */
export function tempNameOf(targetName: string, id: string): string {
  return siblingName(targetName, `${TEMP_MARKER}${id}`);
}

/** Whether `fileName` is a temp file left by {@link writeFileAtomic} (e.g. after a crash). */
export function isAtomicTempName(fileName: string): boolean {
  return TEMP_NAME.test(fileName);
}

/** Options of {@link cleanupStaleTempFiles}. */
export interface CleanupOptions {
  /** Only temp files not modified for this long are removed, so a write in progress elsewhere is left alone (default 60 000). */
  olderThanMs?: number;
}

/**
 * Removes temp files that an interrupted {@link writeFileAtomic} left in `directory` on `fs`, lock files a crashed
 * writer left, and the graves (temp directories a removal goes through over SSH) of a removal cut off between its
 * rename and its end, with the one file they hold (not recursive otherwise). Returns the paths removed. A directory
 * that does not exist has nothing to clean. A lock a live writer holds is refreshed while held, so it is never old
 * enough to be removed. Ages are measured on the clock that stamps the backend's files (`backendClock`: over SSH the
 * host's), so a host whose clock differs from this machine's has no live file taken for an old one.
 */
export async function cleanupStaleTempFiles(
  fs: FileSystem,
  directory: string,
  options: CleanupOptions = {},
): Promise<string[]> {
  const olderThanMs = options.olderThanMs ?? 60_000;
  let names: string[];
  try {
    names = (await fs.readdir(directory)).map((entry) => entry.name);
  } catch (error) {
    if (hasErrno(error, 'ENOENT')) return [];
    throw error;
  }
  const removed: string[] = [];
  const now = await backendClock(fs);
  for (const name of names.filter((entry) => isAtomicTempName(entry) || isLockFileName(entry))) {
    const filePath = path.join(directory, name);
    try {
      const stats = await fs.lstat(filePath);
      // `olderThanMs: 0` means any age: a file written in this very millisecond (or stamped a little ahead of
      // Date.now by another clock) is not "younger than 0 ms". A grave's time is that of the last name put in it.
      if (olderThanMs > 0 && now - stats.mtimeMs < olderThanMs) continue;
      if (stats.isFile()) await fs.unlink(filePath);
      else if (!stats.isDirectory() || !isAtomicTempName(name) || !(await removeLeftGrave(fs, filePath)))
        continue;
      removed.push(filePath);
    } catch (error) {
      // Someone else removed or renamed it meanwhile: nothing left to clean.
      if (!hasErrno(error, 'ENOENT')) throw error;
    }
  }
  return removed;
}

import type { FileSystem } from './file-system.js';

/**
 * The time (ms since the epoch) on the clock that stamps `fs`'s files: the backend's own where it has one that is not
 * this process's (over SSH the host's, which may be off from this machine's by any amount), else this process's. A
 * backend that cannot tell just now (a dropped connection) gets this process's.
 */
export async function backendClock(fs: FileSystem): Promise<number> {
  if (!fs.now) return Date.now();
  return fs.now().catch(() => Date.now());
}

import { hasErrno } from './errno.js';
import type { FileSystem } from './file-system.js';

/**
 * The time (ms since the epoch) on the clock that stamps `fs`'s files: the backend's own where it has one that is not
 * this process's (over SSH the host's, which may be off from this machine's by any amount), else this process's. A
 * look cut off by a dropped connection is made once more, through the next connection: this process's clock, on a host
 * an hour behind, has every file there an hour old (a clean-up would take a live lock for a stale one). A backend that
 * cannot tell even then gets this process's.
 */
export async function backendClock(fs: FileSystem): Promise<number> {
  if (!fs.now) return Date.now();
  const now = fs.now.bind(fs);
  return now()
    .catch((error: unknown) => {
      if (!hasErrno(error, 'ECONNRESET')) throw error;
      return now();
    })
    .catch(() => Date.now());
}

import { errorNamingPaths, nodePath } from './byte-names.js';
import { StatsTable } from './stats-table.js';
import { underBase } from './lstat-many.js';
import { monotonicMs } from '../runtime/monotonic-ms.js';

// `node:fs` as its CommonJS module, as the local backend takes it (its ES facade loads Node's stream modules).
const { lstatSync } = process.getBuiltinModule('node:fs');

// The local disk's `lstatMany`: part of the local backend. Node's promise `lstat` costs about 15 µs of the main
// thread per call on top of the system call, three times the call itself. A synchronous `lstat` costs the system
// call and about 2 µs more, the least processor time there is: about 5 µs a path in all, a third of a second for the
// 63,000 paths of the bench tree. Worker threads did the same in parallel but cost 45 ms of processor each to start,
// and on a busy machine (where the other cores are taken) they made the walk slower, not faster. Measured again on 2
// cores (issue 32): one worker started before the paths were known, taking chunks of them from a shared counter, saved
// 45 of the 220 ms of the walk only with both cores free (the process run as real-time), for 125 ms more processor
// time (its start, and the kernel time of each `lstat` grew by about 40 % with two threads at once); with the machine
// busy it was slower. So the paths are stat'ed on the calling thread, in slices of a few milliseconds between which
// the event loop runs. `bigint: true` costs about 0.5 µs a path over number stats in a fresh process (the bigints and
// their garbage), which is what nanosecond stamps cost: number stats hold times to a quarter of a microsecond only.

/** How long a slice of synchronous `lstat`s may hold the event loop. */
const SLICE_MS = 8;

/** Paths stat'ed between two looks at the clock. */
const CLOCK_EVERY = 128;

const OPTIONS = { bigint: true, throwIfNoEntry: false } as const;

/** Lets the event loop run (timers, I/O callbacks) before the next slice. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The local disk's `lstatMany`: the `lstat` of each path below `base`, nothing recorded where nothing is (`ENOENT`,
 * `ENOTDIR`); rejects on any other error. Synchronous `lstat`s, in slices of at most {@link SLICE_MS} milliseconds
 * between which the event loop runs.
 */
export async function lstatManyLocal(base: string, paths: readonly string[]): Promise<StatsTable> {
  const table = new StatsTable(paths.length);
  let next = 0;
  while (next < paths.length) {
    const until = monotonicMs() + SLICE_MS;
    do {
      const end = Math.min(paths.length, next + CLOCK_EVERY);
      for (; next < end; next += 1) {
        let stats;
        const path = underBase(base, paths[next]!);
        try {
          stats = lstatSync(nodePath(path), OPTIONS);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') continue;
          throw errorNamingPaths(error, path);
        }
        if (stats === undefined) continue;
        table.set(
          next,
          Number(stats.size),
          Number(stats.mode),
          Number(stats.mtimeMs),
          stats.mtimeNs,
          stats.ctimeNs,
          stats.ino,
          stats.dev,
          Number(stats.nlink),
          Number(stats.uid),
          Number(stats.gid),
        );
      }
    } while (next < paths.length && monotonicMs() < until);
    if (next < paths.length) await yieldToEventLoop();
  }
  return table;
}

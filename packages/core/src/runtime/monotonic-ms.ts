// The clock core reads for deadlines, time slices and how long something took. `performance.now()` would do, but its
// first read makes Node load its performance module (perf_hooks and its timing, histogram and observer modules):
// about 6 M instructions, near 1 % of a whole Grep process, whose listing only wanted to slice its lstat calls.
// `process.hrtime` is part of the process object: reading it loads nothing.

/** Milliseconds on a monotonic clock (fractions kept), comparable only with other values of this function. */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1_000 + nanoseconds / 1_000_000;
}

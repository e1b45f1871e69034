// Used by our scripts to hand figures to the harness on fd 3 (stdout stays the tool's output, as for a user).
import { writeSync } from 'node:fs';

/** fd the harness reads reports from (see `peak-rss-preload.ts`). */
const REPORT_FD = 3;

// The stopwatch of our measured scripts. `performance.now()` would load Node's perf_hooks (about 10 M instructions,
// 1.5 % of a cold ReadFile process, `pnpm bench coldStart`) into our processes only: the references run no stopwatch.
// `process.uptime()` reads the same clock from the same origin (the process's start) with nothing to load. It lives
// here, in the module every script loads anyway: a module of its own would cost a file to resolve and compile.

/** Milliseconds since this process started, sub-microsecond precision, monotonic. */
export function sinceStartMs(): number {
  return process.uptime() * 1000;
}

/** A line a script sends to the harness. */
export type ChildReport =
  | { type: 'process'; peakRssBytes: number; cpuMs: number }
  | { type: 'details'; details: Record<string, number> }
  | { type: 'pairs'; ours: number[]; reference: number[] };

function send(report: ChildReport): void {
  try {
    writeSync(REPORT_FD, `${JSON.stringify(report)}\n`);
  } catch {
    // Run by hand, without the harness: show it instead.
    process.stderr.write(`${JSON.stringify(report)}\n`);
  }
}

/** Extra figures of this run (found in `Sample.details`), e.g. the time of the call inside the process. */
export function reportDetails(details: Record<string, number>): void {
  send({ type: 'details', details });
}

/**
 * For in-call rows: one untimed pair (warm-up), then `pairs` pairs of `ours` and `reference` taking turns in this
 * process, each timed; both series are reported.
 */
export async function runPairs(
  pairs: number,
  ours: () => Promise<unknown>,
  reference: () => Promise<unknown>,
): Promise<void> {
  await ours();
  await reference();
  const series = { ours: [] as number[], reference: [] as number[] };
  for (let pair = 0; pair < pairs; pair++) {
    let started = sinceStartMs();
    await ours();
    series.ours.push(sinceStartMs() - started);
    started = sinceStartMs();
    await reference();
    series.reference.push(sinceStartMs() - started);
  }
  send({ type: 'pairs', ...series });
}

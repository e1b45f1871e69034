// Used by our scripts to hand figures to the harness on fd 3 (stdout stays the tool's output, as for a user).
import { writeSync } from 'node:fs';

/** fd the harness reads reports from (see `peak-rss-preload.ts`). */
const REPORT_FD = 3;

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
    let started = performance.now();
    await ours();
    series.ours.push(performance.now() - started);
    started = performance.now();
    await reference();
    series.reference.push(performance.now() - started);
  }
  send({ type: 'pairs', ...series });
}

// Used by our child scripts: time the job in-process and report it, with the process's peak memory, to the harness.

/** Prefix of the line a child script prints for the harness. */
export const RESULT_LINE_PREFIX = 'BENCH_RESULT ';

/** What a child script reports. */
export interface ChildReport {
  wallMs: number;
  /**
   * Peak RSS in bytes as the process sees it (getrusage's ru_maxrss). Linux carries the peak across exec, so when
   * forked straight from a big parent it includes the parent's pages; the harness prefers GNU time's figure.
   */
  peakRssBytes: number;
  details: Record<string, number>;
}

/**
 * Runs `job` once, timing it from its first to its last instruction (process start-up is not counted), and prints
 * the result line. `job` may return extra figures to report (they show up in `RunMeasurement.details`).
 */
export async function measureInChild(
  job: () => Promise<Record<string, number>> | Record<string, number>,
): Promise<void> {
  const started = performance.now();
  const details = await job();
  const wallMs = performance.now() - started;
  const report: ChildReport = { wallMs, peakRssBytes: process.resourceUsage().maxRSS * 1024, details };
  process.stdout.write(`${RESULT_LINE_PREFIX}${JSON.stringify(report)}\n`);
}

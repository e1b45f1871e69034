import { defineConfig } from 'vitest/config';
import { packageTestConfig, WAITING_SUITE_WORKERS } from '../../vitest.shared.js';

/**
 * The suites are bounded (about a minute in total). The end-to-end files (the crash family's kills at random moments
 * of a writer's call, processes racing on one counter) and the soak run go one file at a time, so their timings are
 * not starved by each other on a small machine.
 */
export const reliabilityTest = { fileParallelism: false, testTimeout: 120_000, hookTimeout: 60_000 };
/**
 * The families that run over SSH too: crashes (a kill drops the connection mid-call), concurrency, path attacks, and
 * the shown names (on memory too: every backend lists and reads back names its own way). The shown lines run on
 * memory too: every backend reads and writes the lines compared its own way.
 */
export const reliabilityBackends = {
  memory: ['src/names', 'src/shown-lines'],
  ssh: ['src/crash', 'src/concurrency', 'src/paths', 'src/names'],
} as const;

const endToEnd = packageTestConfig({ test: reliabilityTest }, { backends: reliabilityBackends });
// `vitest run`: two files at once. Their races are within one process (parallel calls, a gated file history) and
// hold whatever the timing, and the SSH files mostly wait on round trips: one at a time took 147 s of wall for 44 s
// of CPU, two take about 50 s.
const unit = packageTestConfig(
  { test: { ...reliabilityTest, fileParallelism: true, maxWorkers: WAITING_SUITE_WORKERS } },
  { backends: reliabilityBackends },
);
export default defineConfig((env) => (env.mode === 'e2e' ? endToEnd : unit)(env));

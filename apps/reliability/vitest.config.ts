import { packageTestConfig } from '../../vitest.shared.js';

/**
 * The suites are bounded (about a minute in total); the files run one at a time so the kill timings and races are
 * not starved by each other on a small machine.
 */
export const reliabilityTest = { fileParallelism: false, testTimeout: 120_000, hookTimeout: 60_000 };

/** The families that run over SSH too: crashes (a kill drops the connection mid-call), concurrency, path attacks. */
export const reliabilityBackends = { ssh: ['src/crash', 'src/concurrency', 'src/paths'] } as const;

export default packageTestConfig({ test: reliabilityTest }, { backends: reliabilityBackends });

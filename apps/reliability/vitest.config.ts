import { defineConfig } from 'vitest/config';

// Scopes `vitest` run inside this package to this package. The suites are bounded (about a minute in total); the
// files run one at a time so the kill timings and races are not starved by each other on a small machine.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `pnpm test:soak`: the same suites with many more iterations (read by src/support/iterations.ts).
export default mergeConfig(
  base,
  defineConfig({
    test: {
      env: { RELIABILITY_SOAK: '1' },
      testTimeout: 3_600_000,
      hookTimeout: 600_000,
    },
  }),
);

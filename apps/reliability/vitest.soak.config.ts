import { packageTestConfig } from '../../vitest.shared.js';
import { reliabilityBackends, reliabilityTest } from './vitest.config.js';

// `pnpm test:soak`: every suite (the end-to-end ones too) with many more iterations (src/support/iterations.ts) and,
// unless FAST_CHECK_SEED names one to replay, a fresh fast-check seed, printed at the start of the run.
process.env['FAST_CHECK_SEED'] ||= 'random';

export default packageTestConfig(
  {
    test: {
      ...reliabilityTest,
      env: { RELIABILITY_SOAK: '1' },
      testTimeout: 3_600_000,
      hookTimeout: 600_000,
    },
  },
  { everything: true, backends: reliabilityBackends },
);

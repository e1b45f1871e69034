import { packageTestConfig } from '../../vitest.shared.js';

// Each snippet runs as its own Node program; a few run a model API loop against a local replay server.
export default packageTestConfig({ test: { testTimeout: 120_000 } });

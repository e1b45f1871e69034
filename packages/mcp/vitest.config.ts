import { packageTestConfig } from '../../vitest.shared.js';

// Also builds the binary the end-to-end tests spawn when it is missing or older than the sources.
export default packageTestConfig({ test: { globalSetup: ['./vitest.global-setup.ts'] } });

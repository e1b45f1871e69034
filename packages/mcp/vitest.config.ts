import { defineConfig } from 'vitest/config';

// Scopes `vitest` run inside this package to this package (the root config lists every project), and builds the
// binary the end-to-end tests spawn.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

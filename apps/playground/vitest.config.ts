import { defineConfig } from 'vitest/config';

// Scopes `vitest` run inside this package to this package (the root config lists every project), and builds
// `dist/main.js`, which the end-to-end tests spawn, when it is missing or older than the sources.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

// Lets `pnpm vitest` at the root run every package's tests; CI runs them per package through turbo.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});

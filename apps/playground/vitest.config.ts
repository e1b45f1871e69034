import { defineConfig } from 'vitest/config';

// Scopes `vitest` run inside this package to this package (the root config lists every project).
export default defineConfig({ test: { include: ['src/**/*.test.ts'] } });

import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: ESM + CJS with types.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    // Both builds run at once: the library's clean must leave the binary alone.
    clean: ['!cli.js', '!cli.js.map'],
    sourcemap: true,
    target: 'node20',
  },
  {
    // The binary: ESM only, with a shebang so `npx @kimi-tools/mcp` can run it.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);

import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: ESM + CJS with types.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    // Both builds run at once: the library's clean must leave the binary's files alone.
    clean: ['!cli*'],
    sourcemap: true,
    target: 'node20',
  },
  {
    // The binary: ESM only, with a shebang so `npx @kimi-tools/mcp` can run it. The server code is split into a
    // chunk loaded only once the command line is good, so usage errors come back without loading the tools.
    entry: ['src/cli.ts'],
    format: ['esm'],
    splitting: true,
    esbuildOptions(options) {
      options.chunkNames = '[name]';
    },
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);

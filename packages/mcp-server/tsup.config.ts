import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.js';

export default defineConfig([
  // The library; both builds run at once, so its clean must leave the binary's files alone.
  { ...libraryBuild, clean: ['!cli*'] },
  {
    // The binary, which `bin/kimi-tools-mcp.js` (the command, with its shebang) loads: ESM only. The server code is split
    // into a chunk loaded only once the command line is good, so usage errors come back without loading the tools.
    entry: ['src/cli.ts'],
    format: ['esm'],
    splitting: true,
    esbuildOptions(options) {
      options.chunkNames = '[name]';
    },
    target: 'node20',
  },
]);

import { defineConfig } from 'tsup';

// The playground is a program, not a library: one ESM file with a shebang, run as `node dist/main.js`.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
});

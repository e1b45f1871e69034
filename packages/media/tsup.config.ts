import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The tool description is Markdown next to the code; inline it as a string in both bundles.
  loader: { '.md': 'text' },
});

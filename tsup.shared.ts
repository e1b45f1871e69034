import type { Options } from 'tsup';

/**
 * How every published package is built: ESM + CJS with type declarations for both, and tool descriptions (Markdown
 * next to the code) inlined as strings.
 */
export const libraryBuild: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  loader: { '.md': 'text' },
};

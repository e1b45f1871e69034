import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.js';

// Two entry points: the host API and the toolkit for tool authors. Code they share goes into shared chunks (for
// CommonJS too), so both entries hand out the very same classes and never two copies of core's code.
export default defineConfig({
  ...libraryBuild,
  entry: ['src/index.ts', 'src/toolkit.ts'],
  splitting: true,
  // `import.meta.url` (file-kind.ts resolves `file-type` from it) in the CommonJS build too.
  shims: true,
});

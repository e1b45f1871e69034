import { defineConfig } from 'tsup';
import { finishBuild, libraryBuild } from '../../tsup.shared.js';

// Three entry points: the host API, the toolkit for tool authors and the file-system seam for backend authors. Code they share goes into shared chunks (for
// CommonJS too), so both entries hand out the very same classes and never two copies of core's code.
//
// Dependencies most calls never need (picomatch, ignore, iconv-lite...) are required on first use
// (`fs/load-on-use.ts`), never imported: Node evaluates them only then, and never sets up its CommonJS export scanner
// for them (about 37 ms of CPU in a warm Glob call when ignore was imported from this ES module).
export default defineConfig({
  ...libraryBuild,
  entry: ['src/index.ts', 'src/toolkit.ts', 'src/fs.ts'],
  splitting: true,
  // `import.meta.url` (file-kind.ts resolves `file-type` from it) in the CommonJS build too.
  shims: true,
  onSuccess: finishBuild,
});

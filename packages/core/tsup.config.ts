import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'tsup';
import { finishBuild, libraryBuild } from '../../tsup.shared.js';

const requireOfConfig = createRequire(import.meta.url);
const IGNORE_LICENSE = path.join(path.dirname(requireOfConfig.resolve('ignore/package.json')), 'LICENSE-MIT');

// Three entry points: the host API, the toolkit for tool authors and the file-system seam for backend authors. Code they share goes into shared chunks (for
// CommonJS too), so both entries hand out the very same classes and never two copies of core's code.
//
// picomatch is a dependency loaded on first use (`fs/load-on-use.ts`): only a host's globs need it; the built-in
// sensitive-file table is compiled without it.
//
// ignore is bundled: every Glob, and ReadFile's directory listing, use it on any ignore file, and
// as a CommonJS dependency imported from an ES module it cost that process Node's CommonJS export scanner (about
// 37 ms of CPU in a warm Glob call on the `pnpm bench glob` corpus). Its licence goes into `dist/` too.
export default defineConfig({
  ...libraryBuild,
  entry: ['src/index.ts', 'src/toolkit.ts', 'src/fs.ts'],
  splitting: true,
  // `import.meta.url` (file-kind.ts resolves `file-type` from it) in the CommonJS build too.
  shims: true,
  noExternal: ['ignore'],
  onSuccess: async () => {
    await finishBuild();
    await copyFile(IGNORE_LICENSE, path.join('dist', 'ignore.LICENSE'));
  },
});

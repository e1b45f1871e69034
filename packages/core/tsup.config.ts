import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'tsup';
import { copyRootLicense, libraryBuild } from '../../tsup.shared.js';

const requireOfConfig = createRequire(import.meta.url);
const PICOMATCH_LICENSE = path.join(
  path.dirname(requireOfConfig.resolve('picomatch/package.json')),
  'LICENSE',
);
const IGNORE_LICENSE = path.join(path.dirname(requireOfConfig.resolve('ignore/package.json')), 'LICENSE-MIT');

// Three entry points: the host API, the toolkit for tool authors and the file-system seam for backend authors. Code they share goes into shared chunks (for
// CommonJS too), so both entries hand out the very same classes and never two copies of core's code.
//
// picomatch is bundled: every tool compiles globs (the sensitive-file table), and as a dependency it cost each
// process six CommonJS modules to resolve and load, and, imported from an ES module, Node's set-up of
// cjs-module-lexer to scan it (about 10 ms of CPU and 4 MB of RSS of a cold ReadFile, `pnpm bench coldStart`). Its
// CommonJS code requires `path`: the ES build defines `require` for it. Its licence goes into `dist/`.
//
// ignore is bundled for the same reason: every Glob, and ReadFile's directory listing, use it on any ignore file, and
// as a CommonJS dependency imported from an ES module it cost that process Node's CommonJS export scanner (about
// 37 ms of CPU in a warm Glob call on the `pnpm bench glob` corpus). Its licence goes into `dist/` too.
export default defineConfig({
  ...libraryBuild,
  entry: ['src/index.ts', 'src/toolkit.ts', 'src/fs.ts'],
  splitting: true,
  // `import.meta.url` (file-kind.ts resolves `file-type` from it) in the CommonJS build too.
  shims: true,
  noExternal: ['picomatch', 'ignore'],
  banner: ({ format }) =>
    format === 'esm'
      ? {
          js: "import { createRequire as createRequireOfCore } from 'node:module'; const require = createRequireOfCore(import.meta.url);",
        }
      : {},
  onSuccess: async () => {
    await copyRootLicense();
    await copyFile(PICOMATCH_LICENSE, path.join('dist', 'picomatch.LICENSE'));
    await copyFile(IGNORE_LICENSE, path.join('dist', 'ignore.LICENSE'));
  },
});

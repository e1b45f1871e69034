import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

const ROOT_LICENSE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'LICENSE');
const ZOD_LICENSE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('zod/package.json')),
  'LICENSE',
);

/** Copies the repository's LICENSE next to the package's `package.json` (run from the package's directory). */
export const copyRootLicense = (): Promise<void> => copyFile(ROOT_LICENSE, 'LICENSE');

/**
 * How every published package is built: ESM + CJS with type declarations for both, and tool descriptions (Markdown
 * next to the code) inlined as strings. The declarations are built against the declarations of the workspace
 * packages they import (no `@kimi-tools/source` condition), as a user's compiler will see them. The repository's
 * LICENSE is copied next to the package's `package.json` (gitignored there; a build output of turbo), so every
 * tarball carries it while the root file stays the only copy in git.
 */
export const libraryBuild: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  // No source maps: they would point at sources the tarball leaves out, or carry them (and bundled zod's) inside.
  sourcemap: false,
  target: 'node20',
  loader: { '.md': 'text' },
  onSuccess: copyRootLicense,
};

/**
 * How a tool package is built: {@link libraryBuild} with zod bundled, tree-shaken to the schemas the tool builds.
 * Importing `zod` itself loads its 64 locales (about 95 modules, 60 ms of CPU at every start of a process), the
 * largest part of a tool's cold start; the bundled part is one module of about 85 kB (its sources import
 * `* as z from 'zod/mini'`, which esbuild can shake; `{ z }` it cannot, and classic zod's methods keep about
 * 180 kB, twice the evaluation at start-up, whatever the schemas use), with zod's English locale alone. Two zod
 * copies in one process agree: zod keeps its registry (descriptions) and configuration on `globalThis`, and checks
 * `instanceof` by traits. zod stays a peer
 * dependency: the type declarations still import it. Its licence goes into `dist/` with the code it covers.
 */
export const toolBuild: Options = {
  ...libraryBuild,
  noExternal: ['zod'],
  onSuccess: async () => {
    await copyRootLicense();
    await copyFile(ZOD_LICENSE, path.join('dist', 'zod.LICENSE'));
  },
};

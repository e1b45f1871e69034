import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

const ROOT_LICENSE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'LICENSE');

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
  sourcemap: true,
  target: 'node20',
  loader: { '.md': 'text' },
  onSuccess: () => copyFile(ROOT_LICENSE, 'LICENSE'),
};

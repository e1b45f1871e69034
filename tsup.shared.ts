import { copyFile, readdir, readFile } from 'node:fs/promises';
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
 * Fails the build when a JavaScript file of `dist/` holds a character outside ASCII. One such character makes Node
 * read the whole module as a two-byte string, twice the memory, and a slower parse at every start of a process (about
 * 1.5 % of the CPU of a cold ReadFile for core's toolkit, `pnpm bench coldStart`). esbuild escapes strings, but keeps
 * comments (a JSDoc in a class, a line comment in an array) and regular expressions as they are written.
 */
export async function checkAsciiOutput(): Promise<void> {
  for (const name of await readdir('dist')) {
    if (!/\.(?:c|m)?js$/.test(name)) continue;
    const lines = (await readFile(path.join('dist', name), 'utf8')).split('\n');
    const index = lines.findIndex((line) => /[^\x00-\x7f]/.test(line));
    if (index === -1) continue;
    throw new Error(
      `dist/${name}:${index + 1} holds a character outside ASCII; write it in ASCII in the source (a \\u escape ` +
        `in a regular expression, plain words in a comment): ${lines[index]!.trim()}`,
    );
  }
}

/** What every build does once its files are written: {@link checkAsciiOutput}, then {@link copyRootLicense}. */
export async function finishBuild(): Promise<void> {
  await checkAsciiOutput();
  await copyRootLicense();
}

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
  onSuccess: finishBuild,
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
    await finishBuild();
    await copyFile(ZOD_LICENSE, path.join('dist', 'zod.LICENSE'));
  },
};

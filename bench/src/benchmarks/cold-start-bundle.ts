// The floor under the cold start's module layout: the cold-start script with everything it loads (core, the read
// package with its zod, picomatch) bundled by esbuild into one ES module file, so Node resolves, reads and compiles
// one module instead of a dozen. What stays is the code itself: parsing it, zod's set-up, the runtime and the call.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * CommonJS dependencies core loads through `createRequire` (opaque to a bundler) that a read of a small text file
 * needs: written as a plain `require` so esbuild bundles them. Core's other dependencies (iconv-lite, chardet, diff,
 * and file-type and ignore, imported dynamically) are not loaded by this call and stay outside the file.
 */
const BUNDLED_REQUIRES = ['picomatch'];
const CORE_DIST = /[\\/]packages[\\/]core[\\/]dist[\\/][^\\/]+\.js$/;
const CORE_REQUIRE = /\brequireFromCore\d*\((["'])([^"']+)\1\)/g;

/** Makes core's load-on-use requires of {@link BUNDLED_REQUIRES} plain, and leaves core's dynamic imports out. */
const coreAsOneFile: Plugin = {
  name: 'core-as-one-file',
  setup(builder) {
    builder.onLoad({ filter: CORE_DIST }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const contents = text.replace(CORE_REQUIRE, (call, _quote: string, specifier: string) =>
        BUNDLED_REQUIRES.includes(specifier) ? `require(${JSON.stringify(specifier)})` : call,
      );
      return { contents, loader: 'js' };
    });
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && CORE_DIST.test(args.importer)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/** Bundles `script` (a `.ts` script of bench/src) into one ES module file in `dir`; returns its path and size. */
export async function bundleScript(script: string, dir: string): Promise<{ file: string; bytes: number }> {
  const outFile = path.join(dir, `${path.basename(script, '.ts')}.bundle.mjs`);
  await build({
    entryPoints: [script],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The bundled CommonJS code requires Node's built-in modules (`path`): an ES module has no `require` of its own.
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
    plugins: [coreAsOneFile],
    logLevel: 'error',
  });
  return { file: outFile, bytes: (await stat(outFile)).size };
}

// The floor under the cold start's module layout: the cold-start script with everything it loads (core with its
// bundled picomatch, the read package with its bundled zod) bundled by esbuild into one ES module file, so Node
// resolves, reads and compiles one module instead of several. What stays is the code itself: compiling it, zod's
// set-up, the runtime and the call.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const CORE_DIST = /[\\/]packages[\\/]core[\\/]dist[\\/][^\\/]+\.js$/;

/**
 * Leaves out what core imports dynamically (file-type, ignore): a read of a small text file loads neither, and a
 * bundle would carry them. Core's other dependencies (iconv-lite, chardet, diff) it loads on use with `require`,
 * which esbuild does not follow: they stay out too.
 */
const onlyWhatTheReadLoads: Plugin = {
  name: 'only-what-the-read-loads',
  setup(builder) {
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
    plugins: [onlyWhatTheReadLoads],
    logLevel: 'error',
  });
  return { file: outFile, bytes: (await stat(outFile)).size };
}

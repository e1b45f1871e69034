import path from 'node:path';
import type { Manifest } from './manifest.js';

/** The files every tarball may carry beside its code: the manifest, the README and the licence. */
const ALWAYS_ALLOWED = new Set(['package.json', 'README.md', 'LICENSE']);

/** The licence of code bundled into a file beside it (`dist/zod.LICENSE`). */
const BUNDLED_LICENCE = /^dist\/[\w.-]+\.LICENSE$/;

/** Relative module specifiers in JavaScript and declaration files: static and dynamic imports, re-exports, require. */
const REFERENCES = [
  /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  /\/\/\/\s*<reference\s+path\s*=\s*['"]([^'"]+)['"]/g,
];

/** The declaration file a declaration's import of `./x.js` (or `.cjs`, `.mjs`) means. */
const DECLARATION_OF: Readonly<Record<string, string>> = {
  '.js': '.d.ts',
  '.cjs': '.d.cts',
  '.mjs': '.d.mts',
};

function isDeclaration(file: string): boolean {
  return /\.d\.[cm]?ts$/.test(file);
}

/** The paths (relative to the package, without `./`) that `exports`, `main`, `module`, `types` and `bin` name. */
export function entryPoints(manifest: Manifest): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(manifest.exports);
  for (const single of [manifest.main, manifest.module, manifest.types, manifest.bin]) visit(single);
  return [...new Set(found.map((entry) => path.posix.normalize(entry)))];
}

/** The files a file's relative imports and references name, resolved against the files of the package. */
function referencedFiles(file: string, content: string, files: ReadonlyMap<string, unknown>): string[] {
  const named: string[] = [];
  for (const pattern of REFERENCES) {
    for (const [, specifier = ''] of content.matchAll(pattern)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const extension = path.posix.extname(target);
      const declaration = DECLARATION_OF[extension];
      named.push(
        isDeclaration(file) && declaration && !files.has(target)
          ? target.slice(0, -extension.length) + declaration
          : target,
      );
    }
  }
  return named;
}

/** What the files of a package are, against what its manifest names. */
export interface PackageFilesReport {
  /** Files in the package that no entry point reaches, and that are neither metadata nor a licence. */
  unreached: string[];
  /** Files an entry point or an import names that the package lacks (`dist/index.js imports ./chunk.js`). */
  missing: string[];
}

/**
 * Walks from the manifest's entry points through every relative import, re-export, `require` and declaration
 * reference, and compares what it reaches with the files the package holds: a test, a fixture, a source map or a
 * source file in the tarball is unreached; an entry point or a chunk left out of it is missing.
 */
export function checkPackageFiles(
  manifest: Manifest,
  files: ReadonlyMap<string, Buffer>,
): PackageFilesReport {
  const reached = new Set<string>();
  const missing: string[] = [];
  const queue = entryPoints(manifest).map((entry) => ({ file: entry, from: 'package.json' }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { file, from } = next;
    if (reached.has(file)) continue;
    const content = files.get(file);
    if (!content) {
      missing.push(`${file} (named by ${from})`);
      continue;
    }
    reached.add(file);
    if (!/\.(?:[cm]?js|d\.[cm]?ts)$/.test(file)) continue;
    for (const target of referencedFiles(file, content.toString('utf8'), files)) {
      queue.push({ file: target, from: file });
    }
  }
  const unreached = [...files.keys()]
    .filter((file) => !reached.has(file) && !ALWAYS_ALLOWED.has(file) && !BUNDLED_LICENCE.test(file))
    .sort();
  return { unreached, missing };
}

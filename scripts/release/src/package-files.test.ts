import { describe, expect, test } from 'vitest';
import type { Manifest } from './manifest.js';
import { checkPackageFiles, entryPoints } from './package-files.js';

const manifest: Manifest = {
  name: '@kimi-tools/sample',
  version: '1.0.0',
  main: './dist/index.cjs',
  module: './dist/index.js',
  types: './dist/index.d.cts',
  bin: { sample: './dist/cli.js' },
  exports: {
    '.': {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './package.json': './package.json',
  },
};

/** A package's files from their text. */
function files(contents: Record<string, string>): Map<string, Buffer> {
  return new Map(Object.entries(contents).map(([file, text]) => [file, Buffer.from(text)]));
}

const complete = {
  'package.json': '{}',
  'README.md': '# sample',
  LICENSE: 'MIT',
  'dist/zod.LICENSE': 'MIT',
  'dist/index.js':
    "import { a } from './chunk-A.js';\nexport * from \"./chunk-B.js\";\nawait import('./lazy.js');",
  'dist/chunk-A.js': 'export const a = 1;',
  'dist/chunk-B.js': "import './side-effect.js';",
  'dist/side-effect.js': '',
  'dist/lazy.js': '',
  'dist/index.cjs': "const a = require('./chunk-C.cjs');",
  'dist/chunk-C.cjs': '',
  'dist/index.d.ts': "import { R } from './runtime-X.js';\nexport { R };",
  'dist/runtime-X.d.ts': '/// <reference path="./globals.d.ts" />',
  'dist/globals.d.ts': '',
  'dist/index.d.cts': "export type { R } from './runtime-X.cjs';",
  'dist/runtime-X.d.cts': '',
  'dist/cli.js': "#!/usr/bin/env node\nimport('./index.js');",
};

describe('entryPoints', () => {
  test('lists what exports, main, module, types and bin name, once each, without ./', () => {
    expect(entryPoints(manifest).sort()).toEqual([
      'dist/cli.js',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
  });
});

describe('checkPackageFiles', () => {
  test('reaches chunks through imports, re-exports, require and declaration references', () => {
    expect(checkPackageFiles(manifest, files(complete))).toEqual({ unreached: [], missing: [] });
  });

  test('names what no entry point reaches: source maps, sources, tests, fixtures', () => {
    const extra = files({
      ...complete,
      'dist/index.js.map': '{}',
      'src/index.ts': '',
      'dist/index.test.js': '',
      'fixtures/big.bin': '',
    });
    expect(checkPackageFiles(manifest, extra).unreached).toEqual([
      'dist/index.js.map',
      'dist/index.test.js',
      'fixtures/big.bin',
      'src/index.ts',
    ]);
  });

  test('names an entry point or an imported chunk the package lacks, with what names it', () => {
    const { 'dist/chunk-C.cjs': _chunk, 'dist/index.d.ts': _types, ...rest } = complete;
    expect(checkPackageFiles(manifest, files(rest)).missing).toEqual([
      'dist/index.d.ts (named by package.json)',
      'dist/chunk-C.cjs (named by dist/index.cjs)',
    ]);
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ENTRIES = ['index.js', 'toolkit.js', 'fs.js'].map((entry) =>
  fileURLToPath(new URL(`../../dist/${entry}`, import.meta.url)),
);

// A fresh process counts the require functions Node makes while it imports the build (vitest's own module runner
// makes one for every module it runs, so only a plain process can tell).
const script = `
const nodeModule = process.getBuiltinModule('node:module');
const createRequire = nodeModule.createRequire;
let made = 0;
nodeModule.createRequire = (...args) => (made++, createRequire(...args));
nodeModule.syncBuiltinESMExports();
for (const entry of ${JSON.stringify(ENTRIES)}) await import(entry);
const before = made;
(await import(${JSON.stringify(ENTRIES[1])})).jsdiff();
process.stdout.write(JSON.stringify({ atImport: before, onUse: made - before }));
`;

// A fresh process lists the public Node modules that loading the build, then an lstat of a few paths on the local disk
// (a Grep's or a Glob's listing), add to those Node loaded before. The lstat reads a clock to slice its work; the
// performance clock would load perf_hooks and its timing modules on its first read.
const modulesScript = `
const before = new Set(process.moduleLoadList);
const loaded = () => process.moduleLoadList
  .filter((name) => !before.has(name) && name.startsWith('NativeModule ') && !name.startsWith('NativeModule internal/'))
  .map((name) => name.slice('NativeModule '.length));
const entries = [];
for (const entry of ${JSON.stringify(ENTRIES)}) entries.push(await import(entry));
const atImport = loaded().sort();
const table = await entries[1].lstatMany(entries[2].localFileSystem, process.cwd(), ['package.json', 'missing']);
const onLstat = loaded().filter((name) => !atImport.includes(name));
process.stdout.write(JSON.stringify({ atImport, onLstat, statted: table.length }));
`;

describe('@kimi-tools/core, built', () => {
  it('makes no require function at import, only when a dependency loaded on use is loaded', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({ atImport: 0, onUse: 1 });
  });

  it('loads only the streams of the start-marker stream at import, and no Node module for a slice of lstat calls', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', modulesScript]);
    const streams = ['stream', 'stream/promises', 'string_decoder'];
    expect(JSON.parse(stdout)).toEqual({ atImport: streams, onLstat: [], statted: 2 });
  });
});

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

describe('@kimi-tools/core, built', () => {
  it('makes no require function at import, only when a dependency loaded on use is loaded', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({ atImport: 0, onUse: 1 });
  });
});

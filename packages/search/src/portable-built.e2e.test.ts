import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SEARCH = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
const CORE = (file: string) => fileURLToPath(new URL(`../../core/dist/${file}`, import.meta.url));

// The portable search's worker thread runs its matcher from source text: a bundler must not have rewritten it into
// something only the module it built can run (its `require`, its helpers). A fresh process on each build greps a
// workspace held in memory.
const script = (loadSearch: string, loadCore: string, loadFs: string) => `
const { Grep } = ${loadSearch};
const { createRuntime, yoloApproval } = ${loadCore};
const { memoryFileSystem } = ${loadFs};
const fs = memoryFileSystem({ files: { '/work/a.txt': 'one\\nzebra two\\n', '/work/b.md': 'no\\n' } });
const runtime = createRuntime({ workDir: '/work', approval: yoloApproval(), fs });
const { output, message, extras } = await new Grep(runtime).call({ pattern: 'z\\\\w+a', output_mode: 'content' });
process.stdout.write(JSON.stringify({ output, message, extras }));
`;

describe('the portable search, built', () => {
  for (const [format, load] of [
    ['ES module', (file: string) => `await import(${JSON.stringify(file)})`],
    ['CommonJS', (file: string) => `require(${JSON.stringify(file)})`],
  ] as const) {
    it(`matches in its worker from the ${format} build, and lets the process exit`, async () => {
      const esm = format === 'ES module';
      const [search, core, fs] = esm
        ? [SEARCH('index.js'), CORE('index.js'), CORE('fs.js')]
        : [SEARCH('index.cjs'), CORE('index.cjs'), CORE('fs.cjs')];
      const body = script(load(search), load(core), load(fs));
      const code = esm ? body : `(async () => {${body}})();`;
      const { stdout } = await run(
        process.execPath,
        [`--input-type=${esm ? 'module' : 'commonjs'}`, '-e', code],
        {
          timeout: 60_000,
        },
      );
      expect(JSON.parse(stdout)).toEqual({
        output: 'a.txt:2:zebra two',
        message: '',
        extras: { total: 1, search: 'portable' },
      });
    });
  }
});

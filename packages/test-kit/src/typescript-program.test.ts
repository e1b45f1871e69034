import { expect } from 'vitest';
import { runProgram, writeTypeScriptProgram } from './typescript-program.js';
import { test } from './workspace-test.js';

const PACKAGE_DIR = new URL('..', import.meta.url).pathname;

test('writes TypeScript as a program and runs it: placeholders, setup, input, exit code', async ({
  workspace,
}) => {
  const program = await writeTypeScriptProgram(
    [
      "import { readFileSync } from 'node:fs';",
      "const typed: string = readFileSync(0, 'utf8');",
      "console.log(typed.trim(), '/path/to/project', (globalThis as { before?: number }).before);",
      'process.exitCode = 3;',
    ].join('\n'),
    workspace.at('../program'),
    {
      packageDir: PACKAGE_DIR,
      replace: { '/path/to/project': workspace.workDir },
      setup: 'globalThis.before = 42;',
    },
  );
  const run = await runProgram(program, { cwd: workspace.workDir, input: 'typed in\n' });
  expect(run).toEqual({ exitCode: 3, stdout: `typed in ${workspace.workDir} 42\n`, stderr: '' });
});

test('kills a program past its time limit', async ({ workspace }) => {
  const program = await writeTypeScriptProgram(
    'await new Promise(() => setInterval(() => {}, 1000));',
    workspace.at('../slow'),
    {
      packageDir: PACKAGE_DIR,
    },
  );
  expect((await runProgram(program, { cwd: workspace.workDir, timeoutMs: 500 })).exitCode).toBe(null);
});

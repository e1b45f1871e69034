import { it } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

const [usage, servers] = await readmeBlocks('packages/diagnostics/README.md');

// Issue 29.9: the Usage edited a file it never read (`File not read`).
it('packages/diagnostics: the Usage runs and answers what its comments say', async ({ workspace }) => {
  await workspace.write('src/a.ts', 'export const a = 1;\n');
  const run = await runSnippet(workspace, usage!.code, {
    after: 'console.log(JSON.stringify(result));',
  });
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  const result = JSON.parse(run.stdout) as {
    message: string;
    extras: { diagnostics: Record<string, unknown> };
    display: Array<Record<string, unknown>>;
  };
  expect(result.message).toBe(
    'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).\n\n' +
      "Diagnostics: new problems, this change introduced 1 problem.\nsrc/a.ts:1:20 error ')' expected.",
  );
  expect(result.extras.diagnostics).toMatchObject({
    status: 'new problems',
    checker: 'typescript',
    kept: 0,
    fixed: 0,
  });
  expect(result.display.at(-1)).toMatchObject({ type: 'section', source: 'diagnostics' });
});

it('packages/diagnostics: the language server snippet runs', async ({ workspace }) => {
  const run = await runSnippet(workspace, servers!.code);
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
});

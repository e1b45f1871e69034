import { it } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import { readmeBlocks } from './run-snippet.js';
import { runVitestSnippets } from './run-vitest-snippets.js';

// The test kit's snippets are test files: each runs with vitest, as a package's tests run.
it('packages/test-kit: every snippet runs as a test file and passes', async ({ workspace }) => {
  const blocks = await readmeBlocks('packages/test-kit/README.md');
  expect(blocks).toHaveLength(7);
  const report = await runVitestSnippets(
    workspace,
    Object.fromEntries(blocks.map((block, index) => [`snippet-${index + 1}`, block.code])),
  );
  const byFile = [...report.tests].sort((a, b) => a.file.localeCompare(b.file));
  const conformance = byFile.filter((test) => test.file === 'snippet-7.test.ts');
  expect(
    byFile.filter((test) => test.file !== 'snippet-7.test.ts'),
    report.output,
  ).toEqual([
    { file: 'snippet-1.test.ts', name: 'WriteFile overwrites a file it has read', status: 'passed' },
    { file: 'snippet-2.test.ts', name: 'numbers the lines it reads', status: 'passed' },
    { file: 'snippet-3.test.ts', name: 'finds the shared tree', status: 'passed' },
    {
      file: 'snippet-4.test.ts',
      name: 'WriteFile reaches the file only through the runtime file system',
      status: 'passed',
    },
    { file: 'snippet-5.test.ts', name: 'sends one chat completion', status: 'passed' },
    { file: 'snippet-6.test.ts', name: 'reaches the server over SFTP', status: 'passed' },
  ]);
  // The conformance suite's cases on the memory backend: each passed, or skipped for what the backend lacks.
  expect(conformance.length, report.output).toBeGreaterThan(40);
  expect(
    conformance.filter((test) => !['passed', 'skipped'].includes(test.status)),
    report.output,
  ).toEqual([]);
  expect(report.exitCode).toBe(0);
});

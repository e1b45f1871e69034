import { it } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

const [usage] = await readmeBlocks('packages/search/README.md');

// Issue 29.9: the Usage passed a `signal` it never defined (`ReferenceError: signal is not defined`).
it('packages/search: the Usage runs and answers what its comments say', async ({ workspace }) => {
  await workspace.writeAll({
    'src/index.ts': `${'// intro\n'.repeat(8)}export function main() {\n  // TODO: flags\n  run();\n}\n`,
    'src/ui/app.tsx': 'export {};\n',
  });
  const run = await runSnippet(workspace, usage!.code, {
    after: 'console.log(JSON.stringify({ files, hits }));',
  });
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  const { files, hits } = JSON.parse(run.stdout) as Record<string, { output: string; message: string }>;
  expect(files).toMatchObject({
    output: 'src/index.ts\nsrc/ui/app.tsx',
    message: 'Found 2 matches for pattern `src/**/*.{ts,tsx}`.',
  });
  expect(hits!.output).toBe(
    'src/index.ts-9-export function main() {\nsrc/index.ts:10:  // TODO: flags\nsrc/index.ts-11-  run();',
  );
});

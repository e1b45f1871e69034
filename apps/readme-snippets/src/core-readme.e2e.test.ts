import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

const blocks = await readmeBlocks('packages/core/README.md');

/** The block that starts with `start` (the blocks are found by their text, not their place). */
function block(start: string): string {
  const found = blocks.find((candidate) => candidate.code.startsWith(start));
  if (!found) throw new Error(`packages/core/README.md has no ts block starting with ${start}`);
  return found.code;
}

/** Runs a snippet that must run cleanly; gives its standard output. */
async function ranCleanly(run: ReturnType<typeof runSnippet>): Promise<string> {
  const done = await run;
  expect(done.stderr).toBe('');
  expect(done.exitCode).toBe(0);
  return done.stdout;
}

const lastJson = (stdout: string): unknown => JSON.parse(stdout.trim().split('\n').at(-1) ?? '');

describe('packages/core', () => {
  it('the Quick start reads a file, taking "20" for an integer', async ({ workspace }) => {
    await workspace.write('src/app.ts', 'export const app = 1;\n');
    const stdout = await ranCleanly(
      runSnippet(
        workspace,
        block("import { createRuntime, yoloApproval } from '@kimi-tools/core';\nimport { ReadFile }"),
      ),
    );
    expect(stdout).toBe(
      '     1\texport const app = 1;\n 1 lines read from file starting from line 1. Total lines in file: 1. End of file reached.\n',
    );
  });

  it('the result helpers run', async ({ workspace }) => {
    await ranCleanly(runSnippet(workspace, block("import { toolError, toolOk } from '@kimi-tools/core';")));
  });

  it('the tool set dispatches a model’s call and renders the result for the model', async ({ workspace }) => {
    await workspace.write('a.ts', '// TODO: test\n');
    const printed = lastJson(
      await ranCleanly(
        runSnippet(workspace, block('import { createRuntime, createToolSet, modelText'), {
          after: 'console.log(JSON.stringify({ names: definitions.map((tool) => tool.name), text }));',
        }),
      ),
    );
    expect(printed).toEqual({ names: ['ReadFile', 'Grep'], text: 'a.ts:1:// TODO: test' });
  });

  it('the Head tool is what its comments say', async ({ workspace }) => {
    await workspace.write('a.txt', 'one\ntwo\nthree\n');
    const printed = lastJson(
      await ranCleanly(
        runSnippet(workspace, block("import { z } from 'zod';\nimport { CallableTool, toolError"), {
          after: [
            "import { createRuntime, yoloApproval } from '@kimi-tools/core';",
            "const runtime = createRuntime({ workDir: '/path/to/project', approval: yoloApproval() });",
            'const head = new Head(runtime);',
            "const bad = await head.call({ path: 'a.txt', n_lines: 2.5 });",
            "const good = await head.call({ path: 'a.txt', n_lines: 2 });",
            'console.log(JSON.stringify({ parameters: head.parameters, bad: bad.message, good: good.output }));',
          ].join('\n'),
        }),
      ),
    );
    expect(printed).toMatchObject({
      parameters: {
        type: 'object',
        required: ['path'],
        properties: {
          path: { type: 'string' },
          n_lines: { default: 10, type: 'integer', minimum: 1, maximum: 100 },
        },
      },
      bad: 'Error validating JSON arguments: n_lines: Invalid input: expected integer, received number',
      good: 'one\ntwo',
    });
  });

  it('the runtime slot, the Approval interface and the session approval run', async ({ workspace }) => {
    await ranCleanly(
      runSnippet(workspace, block("import { defineRuntimeSlot } from '@kimi-tools/core/toolkit';")),
    );
    await ranCleanly(runSnippet(workspace, block('interface Approval {')));
    await ranCleanly(runSnippet(workspace, block('import { createRuntime, FileActions, formatUnifiedDiff')));
  });

  it('the text codec round trip runs', async ({ workspace }) => {
    await workspace.write('notes.txt', 'one\r\ntwo\r\n');
    const printed = lastJson(
      await ranCleanly(
        runSnippet(workspace, block("import { readFile } from 'node:fs/promises';\nimport { decodeText"), {
          after:
            'if (result.ok) console.log(JSON.stringify(Buffer.from(encodeChange(result.decoded, bytes, result.decoded.text.toUpperCase())).toString()));',
        }),
      ),
    );
    expect(printed).toBe('ONE\r\nTWO\r\n');
  });

  it('the SortLines tool sorts a file it has read, through applyFileChange', async ({ workspace }) => {
    const file = await workspace.write('list.txt', 'pear\napple\nfig\n');
    const printed = lastJson(
      await ranCleanly(
        runSnippet(workspace, block("import { z } from 'zod';\nimport { CallableTool, toolOk"), {
          after: [
            "import { createRuntime, yoloApproval } from '@kimi-tools/core';",
            "import { ReadFile } from '@kimi-tools/read';",
            "const runtime = createRuntime({ workDir: '/path/to/project', approval: yoloApproval() });",
            "await new ReadFile(runtime).call({ path: 'list.txt' });",
            "console.log(JSON.stringify((await new SortLines(runtime).call({ path: 'list.txt' })).message));",
          ].join('\n'),
        }),
      ),
    );
    expect(printed).toBe('Sorted. Current size: 15 bytes.');
    expect(await readFile(file, 'utf8')).toBe('apple\nfig\npear\n');
  });

  it('the change observer is told of changes and closed with the runtime', async ({ workspace }) => {
    const stdout = await ranCleanly(
      runSnippet(
        workspace,
        block(
          "import { createRuntime, yoloApproval } from '@kimi-tools/core';\nimport type { FileChangeObserver }",
        ),
      ),
    );
    expect(stdout).toBe('changed: []\n');
  });

  it('the history example writes, undoes and clears', async ({ workspace }) => {
    await ranCleanly(
      runSnippet(workspace, block("import { mkdtemp } from 'node:fs/promises';"), {
        env: { TMPDIR: workspace.root },
      }),
    );
    // The last restore went back to the version saved before the file existed.
    expect(existsSync(workspace.at('file.txt'))).toBe(false);
  });
});

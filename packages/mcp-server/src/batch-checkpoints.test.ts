import fs from 'node:fs/promises';
import { createCheckpoints } from '@kimi-tools/checkpoints';
import type { ToolRuntime } from '@kimi-tools/core';
import { test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { checkpointEachBatch } from './batch-checkpoints.js';
import { createCheckpointTools } from './checkpoint-tools.js';
import { createFileTools } from './file-tools.js';

const PAUSE_MS = 500;

/**
 * The server's tools with a checkpoint per batch, on a clock the test moves; each checkpoint starts once `gate`
 * resolves.
 */
function batchedTools(
  workspace: TempWorkspace,
  runtime: ToolRuntime,
  { onError, gate }: { onError?: (error: unknown) => void; gate?: Promise<void> } = {},
) {
  const clock = { now: 0 };
  const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
  const gated = {
    create: async (label?: string) => {
      await gate;
      return checkpoints.create(label);
    },
  };
  const tools = checkpointEachBatch([...createFileTools(runtime), ...createCheckpointTools(runtime)], gated, {
    writers: ['WriteFile', 'StrReplaceFile', 'NotebookEdit', 'ApplyPatch'],
    pauseMs: PAUSE_MS,
    now: () => clock.now,
    ...(onError ? { onError } : {}),
  });
  const call = (name: string, args: Record<string, unknown>) =>
    tools.find((tool) => tool.name === name)!.call(args);
  return { clock, checkpoints, call, tools };
}

describe('checkpointEachBatch: a checkpoint before each batch of calls that changes files', () => {
  test('keeps what each tool declares it does to files, which its MCP hints follow', ({
    workspace,
    runtime,
  }) => {
    const { tools } = batchedTools(workspace, runtime);
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.access]))).toEqual({
      ReadFile: 'read',
      WriteFile: 'edit',
      StrReplaceFile: 'edit',
      NotebookEdit: 'edit',
      ApplyPatch: 'edit',
      Glob: 'read',
      Grep: 'read',
      ListCheckpoints: 'read',
      Rewind: 'edit',
    });
  });

  test('calls back to back are one batch; a pause starts the next; reads take none', async ({
    workspace,
    runtime,
  }) => {
    await workspace.write('a.txt', 'one\n');
    const { clock, checkpoints, call } = batchedTools(workspace, runtime);

    await call('ReadFile', { path: 'a.txt' });
    expect(await checkpoints.list()).toEqual([]);
    expect((await call('WriteFile', { path: 'a.txt', content: 'two\n' })).isError).toBe(false);
    clock.now += PAUSE_MS; // not more than the pause: the same batch
    expect((await call('WriteFile', { path: 'b.txt', content: 'new\n' })).isError).toBe(false);
    expect((await checkpoints.list()).map((checkpoint) => checkpoint.label)).toEqual(['before WriteFile']);

    clock.now += PAUSE_MS + 1;
    await call('ReadFile', { path: 'a.txt' });
    clock.now += PAUSE_MS + 1;
    await call('StrReplaceFile', { path: 'a.txt', edit: { old: 'two', new: 'three' } });
    const [first, second] = await checkpoints.list();
    expect(second).toMatchObject({
      label: 'before StrReplaceFile',
      files: [
        { path: 'a.txt', change: 'modified' },
        { path: 'b.txt', change: 'created' },
      ],
    });

    // The first checkpoint is the workspace before the batch's first write.
    const rewind = await call('Rewind', { checkpoint: first!.id });
    expect(rewind.message).toBe(
      'Rewound to checkpoint 1: 2 files changed.\n' +
        'a.txt: modified since the checkpoint, restored\n' +
        'b.txt: created since the checkpoint, removed\n' +
        'Checkpoint 3 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('one\n');
  });

  test('calls that run at once are one batch: every write waits for its checkpoint', async ({
    workspace,
    runtime,
  }) => {
    await workspace.writeAll({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { checkpoints, call } = batchedTools(workspace, runtime, { gate });
    const writes = Promise.all([
      call('WriteFile', { path: 'c.txt', content: 'c\n' }),
      call('WriteFile', { path: 'd.txt', content: 'd\n' }),
    ]);
    // While the checkpoint cannot start, the reads run and the writes wait.
    expect((await call('ReadFile', { path: 'a.txt' })).isError).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fs.stat(workspace.at('c.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    open();
    const results = await writes;
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    const list = await checkpoints.list();
    expect(list).toHaveLength(1);
    // Taken before either write: the next checkpoint sees both as created.
    expect((await checkpoints.create()).files).toEqual([
      { path: 'c.txt', change: 'created' },
      { path: 'd.txt', change: 'created' },
    ]);
  });

  test('a checkpoint that fails is told, and the batch runs without it', async ({ workspace, runtime }) => {
    // The store's directory cannot be made: a file is where it should be.
    await workspace.write(workspace.outside('store'), 'in the way');
    const errors: unknown[] = [];
    const { call } = batchedTools(workspace, runtime, { onError: (error) => errors.push(error) });
    const result = await call('WriteFile', { path: 'a.txt', content: 'written\n' });
    expect(result.isError).toBe(false);
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('written\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: expect.stringMatching(/^E(EXIST|NOTDIR)$/) });
  });
});

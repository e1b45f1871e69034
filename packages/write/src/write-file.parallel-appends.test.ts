import { FileHistory, yoloApproval, type ApprovalResponse } from '@kimi-tools/core';
import { forwardingFileSystem, recordingApproval, test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

const MODIFIED =
  '`log.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.';

/** `count` appends to `log.txt` made at once through `tool`, `line {i}` each. */
function appendAtOnce(tool: WriteFile, count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      tool.call({ path: 'log.txt', content: `line ${index}\n`, mode: 'append' }),
    ),
  );
}

/** The lines the file holds after `start`, which must come first. */
async function linesAfterStart(workspace: TempWorkspace): Promise<string[]> {
  const text = await workspace.read(workspace.at('log.txt'));
  expect(text.startsWith('start\n')).toBe(true);
  return text.slice('start\n'.length).split('\n').slice(0, -1);
}

describe('WriteFile appends to one file made at once', () => {
  for (const [how, approval] of [
    ['asked', () => recordingApproval()],
    ['approved by yolo', () => yoloApproval()],
  ] as const) {
    for (const count of [2, 10]) {
      test(`lands all ${count} of them, one after the other (${how})`, async ({ workspace }) => {
        await workspace.write('log.txt', 'start\n');
        const tool = new WriteFile(workspace.runtime({ approval: approval() }));
        const results = await appendAtOnce(tool, count);
        expect(results.map((result) => result.isError)).toEqual(Array(count).fill(false));
        // Each landed at the end of what the file held then: every text intact, in some order.
        const lines = await linesAfterStart(workspace);
        expect([...lines].sort()).toEqual(
          Array.from({ length: count }, (_, index) => `line ${index}`).sort(),
        );
        // Each reports the file's size after its own write: the sizes the file went through, one per append.
        const sizes = results
          .map((result) => (result.extras as { bytes: number }).bytes)
          .sort((a, b) => a - b);
        expect(sizes).toEqual(
          Array.from({ length: count }, (_, index) => 'start\n'.length + 7 * (index + 1)),
        );
      });
    }
  }

  test('shows the append that landed after another as written: its diff, size and last lines', async ({
    workspace,
    runtime,
  }) => {
    const file = await workspace.write('log.txt', 'start\n');
    const tool = new WriteFile(runtime);
    const [a, b] = await Promise.all([
      tool.call({ path: 'log.txt', content: 'A\n', mode: 'append' }),
      tool.call({ path: 'log.txt', content: 'B\n', mode: 'append' }),
    ]);
    const text = await workspace.read(file);
    const [first, second] = text === 'start\nA\nB\n' ? [a, b] : [b, a];
    const [firstLine, secondLine] = text === 'start\nA\nB\n' ? ['A', 'B'] : ['B', 'A'];
    expect(text).toBe(`start\n${firstLine}\n${secondLine}\n`);
    expect(first).toMatchObject({
      message: 'File successfully appended to. Current size: 8 bytes.',
      output: `     1\tstart\n     2\t${firstLine}\n`,
    });
    expect(second).toEqual({
      isError: false,
      message: 'File successfully appended to. Current size: 10 bytes.',
      output: `     1\tstart\n     2\t${firstLine}\n     3\t${secondLine}\n`,
      brief: '',
      display: [
        {
          type: 'diff',
          path: file,
          oldText: `start\n${firstLine}`,
          newText: `start\n${firstLine}\n${secondLine}`,
          oldStart: 1,
          newStart: 1,
          isSummary: false,
        },
      ],
      extras: { created: false, bytes: 10 },
    });
  });

  test('keeps the format of the file in every append, and each can be undone in turn', async ({
    workspace,
  }) => {
    const history = new FileHistory();
    const file = await workspace.write('log.txt', 'start\r\n');
    const tool = new WriteFile(workspace.runtime({ history }));
    await Promise.all([
      tool.call({ path: 'log.txt', content: 'A\n', mode: 'append' }),
      tool.call({ path: 'log.txt', content: 'B\n', mode: 'append' }),
    ]);
    expect(['start\r\nA\r\nB\r\n', 'start\r\nB\r\nA\r\n']).toContain(await workspace.read(file));
    const written = await workspace.read(file);
    await history.undo();
    expect(await workspace.read(file)).toBe(written.slice(0, -3));
    await history.undo();
    expect(await workspace.read(file)).toBe('start\r\n');
  });
});

describe('WriteFile appends to one file that still refuse what they were not computed from', () => {
  for (const [what, change, left] of [
    ['truncated', (workspace: TempWorkspace) => workspace.truncate(workspace.at('log.txt'), 3), 'sta'],
    ['overwritten', (workspace: TempWorkspace) => workspace.write('log.txt', 'new\n'), 'new\n'],
    [
      'appended to by another program',
      (workspace: TempWorkspace) => workspace.append('log.txt', 'other\n'),
      'start\nfirst\nother\n',
    ],
  ] as const) {
    test(`an append that finds the file ${what} after the append before it landed`, async ({ workspace }) => {
      const file = await workspace.write('log.txt', 'start\n');
      let changed = false;
      // Another program acts as soon as the first append has renamed its content into place.
      const fs = {
        ...forwardingFileSystem(workspace.fs),
        rename: async (from: string, to: string) => {
          await workspace.fs.rename(from, to);
          if (to === file && !changed) {
            changed = true;
            await change(workspace);
          }
        },
      };
      const tool = new WriteFile(workspace.runtime({ fs }));
      const results = await Promise.all([
        tool.call({ path: 'log.txt', content: 'first\n', mode: 'append' }),
        tool.call({ path: 'log.txt', content: 'second\n', mode: 'append' }),
      ]);
      const refused = results.filter((result) => result.isError);
      expect(refused).toEqual([expect.objectContaining({ message: MODIFIED, brief: 'File modified' })]);
      const landed = results.find((result) => !result.isError)!;
      const firstText = landed.message.includes('12 bytes') ? 'first\n' : 'second\n';
      expect(await workspace.read(file)).toBe(left.replace('first\n', firstText));
    });
  }

  test('an append that the runtime wrote while the approval of another was pending', async ({
    workspace,
  }) => {
    const file = await workspace.write('log.txt', 'start\n');
    let firstDone: Promise<unknown> = Promise.resolve();
    const approval = recordingApproval(async (request): Promise<ApprovalResponse> => {
      // The second append's prompt stays open until the first append is written (whichever prompt comes first: the
      // two calls read the file side by side).
      if (request.editable?.[0]?.proposedText().endsWith('second\n')) await firstDone;
      return { kind: 'approve' };
    });
    const tool = new WriteFile(workspace.runtime({ approval }));
    const first = tool.call({ path: 'log.txt', content: 'first\n', mode: 'append' });
    firstDone = first;
    const second = tool.call({ path: 'log.txt', content: 'second\n', mode: 'append' });
    expect((await first).isError).toBe(false);
    expect(await second).toMatchObject({ isError: true, message: MODIFIED, brief: 'File modified' });
    expect(await workspace.read(file)).toBe('start\nfirst\n');
  });

  test('an append that was to create the file, which another append created meanwhile', async ({
    workspace,
    runtime,
  }) => {
    const tool = new WriteFile(runtime);
    const results = await Promise.all([
      tool.call({ path: 'log.txt', content: 'first\n', mode: 'append' }),
      tool.call({ path: 'log.txt', content: 'second\n', mode: 'append' }),
    ]);
    expect(results.filter((result) => result.isError)).toEqual([
      expect.objectContaining({ message: MODIFIED, brief: 'File modified' }),
    ]);
    expect(['first\n', 'second\n']).toContain(await workspace.read(workspace.at('log.txt')));
  });

  test('an append the user answered with their own content', async ({ workspace }) => {
    const file = await workspace.write('log.txt', 'start\n');
    const approval = recordingApproval((request) =>
      request.editable?.[0]?.proposedText().endsWith('mine\n')
        ? { kind: 'approve', content: 'start\nmine, edited\n' }
        : { kind: 'approve' },
    );
    const tool = new WriteFile(workspace.runtime({ approval }));
    const results = await Promise.all([
      tool.call({ path: 'log.txt', content: 'other\n', mode: 'append' }),
      tool.call({ path: 'log.txt', content: 'mine\n', mode: 'append' }),
    ]);
    // Whichever is written first, the other is refused: the user's content replaces the file they were shown, and
    // the append does not land after the user's content, which is no append.
    expect(results.filter((result) => result.isError)).toEqual([
      expect.objectContaining({ message: MODIFIED, brief: 'File modified' }),
    ]);
    expect(['start\nother\n', 'start\nmine, edited\n']).toContain(await workspace.read(file));
  });
});

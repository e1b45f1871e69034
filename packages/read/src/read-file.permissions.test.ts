import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

/** The kit's test, with `withRules`: a ReadFile on a runtime with these permission rules. */
const it = test.extend('withRules', ({ workspace }) => (permissions: string[]) => {
  const approval = recordingApproval();
  return { approval, tool: new ReadFile(workspace.runtime({ approval, permissions })) };
});

describe('ReadFile and permission rules (docs/permissions.md)', () => {
  it('is a Read: a deny refuses it with the rule, before it looks at the file', async ({
    workspace,
    withRules,
  }) => {
    await workspace.write('private/notes.md', 'secret plans\n');
    const { tool } = withRules(['deny Read(private/)', 'deny Edit(**)']);
    expect(await tool.call({ path: 'private/notes.md' })).toEqual({
      isError: true,
      output: '',
      message: '`private/notes.md` is denied by the permission rule `deny Read(private/)`.',
      brief: 'Denied by permission rule',
      display: [{ type: 'brief', text: 'Denied by permission rule' }],
    });
    // A missing file under a denied directory is refused the same way: the answer tells nothing of what is there.
    expect((await tool.call({ path: 'private/none.md' })).brief).toBe('Denied by permission rule');
    await workspace.write('public.md', 'hello\n');
    expect((await tool.call({ path: 'public.md' })).output).toBe('     1\thello\n');
  });

  it('is matched by its own name, and never asks', async ({ workspace, withRules }) => {
    await workspace.write('a.md', 'a\n');
    const { tool, approval } = withRules(['deny ReadFile(*.md)', 'ask Read(**)']);
    expect((await tool.call({ path: 'a.md' })).brief).toBe('Denied by permission rule');
    await workspace.write('a.txt', 'a\n');
    expect((await tool.call({ path: 'a.txt' })).isError).toBe(false);
    expect(approval.requests).toEqual([]);
  });
});

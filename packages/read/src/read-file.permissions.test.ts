import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

/** The kit's test, with `withRules`: a ReadFile on a runtime with these permission rules. */
const it = test.extend('withRules', ({ workspace }) => (permissions: string[], deny: string[] = []) => {
  const approval = recordingApproval();
  return { approval, tool: new ReadFile(workspace.runtime({ approval, permissions, deny })) };
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

  it("leaves out of a directory's listing, silently, what a deny rule hides from it", async ({
    workspace,
    withRules,
  }) => {
    await workspace.write('private/notes.md', 'secret plans\n');
    await workspace.write('keys/server.key', 'k\n');
    await workspace.write('keys/server.pub', 'p\n');
    await workspace.write('README.md', 'hello\n');
    const { tool } = withRules(['deny Read(private/)', 'deny ReadFile(*.key)', 'deny Edit(README.md)']);
    // An Edit rule hides nothing from a read.
    expect((await tool.call({ path: '.' })).message).toBe(
      '`.` is not a file. It is a directory holding:\nREADME.md\nkeys/\nUse the Glob tool to find files in it.',
    );
    expect((await tool.call({ path: 'keys' })).message).toBe(
      '`keys` is not a file. It is a directory holding:\nserver.pub\nUse the Glob tool to find files in it.',
    );
    // The rules of another read tool hide nothing from ReadFile.
    const other = withRules(['deny Glob(private/)']);
    expect((await other.tool.call({ path: '.' })).message).toBe(
      '`.` is not a file. It is a directory holding:\nREADME.md\nkeys/\nprivate/\nUse the Glob tool to find files in it.',
    );
  });

  it('names no hidden file in a missing file\'s "Did you mean" hint', async ({ workspace, withRules }) => {
    await workspace.write('keys/server.key', 'k\n');
    await workspace.write('keys/server.pem', 'p\n');
    const open = withRules([]);
    expect((await open.tool.call({ path: 'keys/server.kye' })).message).toBe(
      '`keys/server.kye` does not exist. Did you mean: keys/server.key, keys/server.pem?',
    );
    const ruled = withRules(['deny Read(*.key)']);
    expect((await ruled.tool.call({ path: 'keys/server.kye' })).message).toBe(
      '`keys/server.kye` does not exist. Did you mean: keys/server.pem?',
    );
    // The runtime's deny globs hide a name from the hint too.
    const globbed = withRules([], ['**/*.pem']);
    expect((await globbed.tool.call({ path: 'keys/server.kye' })).message).toBe(
      '`keys/server.kye` does not exist. Did you mean: keys/server.key?',
    );
  });
});

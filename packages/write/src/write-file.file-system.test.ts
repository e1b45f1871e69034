import {
  backendHas,
  markRead,
  rewriteKeepingMtime,
  SFTP_CAPABILITIES,
  test,
  translatedRuntime,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './index.js';

/** What a directory holds besides `keep`: temp and lock files a write must not leave. */
async function leftovers(workspace: TempWorkspace, ...keep: string[]): Promise<string[]> {
  return (await workspace.list()).filter((name) => !keep.includes(name));
}

// The runtime's file system shows the workspace at /virtual: a write that went to the disk directly would land
// nowhere the test looks, or fail to find the file it reads first.
describe.each([
  ['the local disk', {}],
  ['SFTP', { capabilities: SFTP_CAPABILITIES }],
])('WriteFile through the runtime’s file system (as %s can do)', (_name, options) => {
  test('creates a file with its missing directories, appends, and overwrites what the session read', async ({
    workspace,
  }) => {
    const { runtime, at, files } = translatedRuntime(workspace, options);
    const tool = new WriteFile(runtime);
    const created = await tool.call({ path: 'a/b/new.txt', content: 'one\n' });
    expect(created.message).toBe(
      'File successfully overwritten. Current size: 4 bytes. Created directories: a, a/b.',
    );
    const appended = await tool.call({ path: 'a/b/new.txt', content: 'two\n', mode: 'append' });
    expect(appended.message).toBe('File successfully appended to. Current size: 8 bytes.');
    await workspace.write('old.txt', 'old\n');
    await markRead(runtime, at('old.txt'));
    const overwritten = await tool.call({ path: 'old.txt', content: 'new\n' });
    expect(overwritten.message).toBe('File successfully overwritten. Current size: 4 bytes.');
    expect(await workspace.read(workspace.at('a/b/new.txt'))).toBe('one\ntwo\n');
    expect(await workspace.read(workspace.at('old.txt'))).toBe('new\n');
    expect(await leftovers(workspace, 'a', 'old.txt')).toEqual([]);
    // The directories found missing, and made, through the runtime's file system.
    expect(files.operations).toEqual(
      expect.arrayContaining(['lstat /virtual/work/a/b', 'lstat /virtual/work/a']),
    );
    expect(files.operations).toContain('mkdir /virtual/work/a/b');
    expect(
      files.operations.some((operation) => /^rename \/virtual\/work\/\.old\.txt\.kimi-tmp-/.test(operation)),
    ).toBe(true);
  });

  test.runIf(backendHas('exact-times'))(
    'refuses to overwrite a file rewritten since the read, even with its size and time kept',
    async ({ workspace }) => {
      const { runtime, at } = translatedRuntime(workspace, options);
      await workspace.write('a.txt', 'value=1\n');
      await markRead(runtime, at('a.txt'));
      await rewriteKeepingMtime(workspace.at('a.txt'), 'value=2\n');
      const result = await new WriteFile(runtime).call({ path: 'a.txt', content: 'value=3\n' });
      expect(result.brief).toBe('File modified');
      expect(await workspace.read(workspace.at('a.txt'))).toBe('value=2\n');
      expect(await leftovers(workspace, 'a.txt')).toEqual([]);
    },
  );
});

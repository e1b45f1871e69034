import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core/fs';
import {
  forwardingFileSystem,
  recordingApproval,
  signal,
  test,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

/** A file whose name the file system refuses (over 255 bytes): its write fails once its directories are made. */
const TOO_LONG = `${'x'.repeat(300)}.txt`;

/**
 * The workspace's file system, where `new/dir` being made fires `made`, and the lock file of `new/dir/{name}` is
 * created only once `before` settles: the call writing it is held right where a directory of its that went missing
 * fails it. With `failsOnceLockAsked`, the failing write (its rename onto `new/dir/{TOO_LONG}`) waits until that lock
 * is asked for: the other call has made sure of its directory by then.
 */
function holdingLockOf(
  workspace: TempWorkspace,
  name: string,
  before: Promise<unknown>,
  failsOnceLockAsked: boolean,
) {
  const base = forwardingFileSystem(workspace.fs);
  const made = signal();
  const asked = signal();
  // A long name's lock file is cut and hashed: its start and its suffix tell it.
  const isLockOf = (file: string) =>
    path.dirname(file) === workspace.at('new/dir') &&
    path.basename(file).startsWith(`.${name.slice(0, 16)}`) &&
    file.endsWith('.kimi-lock');
  const fs: FileSystem = {
    ...base,
    mkdir: async (directory, options) => {
      await base.mkdir(directory, options);
      if (directory === workspace.at('new/dir')) made.fire();
    },
    create: async (file, mode) => {
      if (isLockOf(file)) {
        asked.fire();
        await before;
      }
      return base.create(file, mode);
    },
    rename: async (from, to) => {
      if (failsOnceLockAsked && to === workspace.at(`new/dir/${TOO_LONG}`)) await asked.promise;
      return base.rename(from, to);
    },
  };
  return { fs, made: made.promise };
}

describe('WriteFile calls side by side in a directory one of them made', () => {
  test('one writes into it while the one that made it fails: it stays for the file', async ({
    workspace,
  }) => {
    const failed = signal();
    const { fs, made } = holdingLockOf(workspace, 'b.txt', failed.promise, true);
    const tool = new WriteFile(workspace.runtime({ fs }));
    const failing = tool.call({ path: `new/dir/${TOO_LONG}`, content: 'one\n' }).finally(failed.fire);
    // The second call looks for its directory once the first has made it (started at once, it may look first, under
    // load, and rightly report the directories as its own).
    await made;
    const writing = tool.call({ path: 'new/dir/b.txt', content: 'two\n' });
    expect((await failing).message).toMatch(/^Failed to write to new\/dir\/x+\.txt\. Error: ENAMETOOLONG/);
    expect(await writing).toMatchObject({
      isError: false,
      message: 'File successfully overwritten. Current size: 4 bytes.',
    });
    expect(await workspace.list('new/dir')).toEqual(['b.txt']);
  });

  test('one found it made, and it was removed while its approval was pending: it is made again', async ({
    workspace,
  }) => {
    const failed = signal();
    const { fs, made } = holdingLockOf(workspace, 'b.txt', Promise.resolve(), false);
    const approval = recordingApproval(async (request) => {
      if (request.path.endsWith('b.txt')) await failed.promise;
      return { kind: 'approve' };
    });
    const tool = new WriteFile(workspace.runtime({ fs, approval }));
    const failing = tool.call({ path: `new/dir/${TOO_LONG}`, content: 'one\n' }).finally(failed.fire);
    await made;
    const writing = tool.call({ path: 'new/dir/b.txt', content: 'two\n' });
    expect((await failing).isError).toBe(true);
    expect(await writing).toMatchObject({
      isError: false,
      message: 'File successfully overwritten. Current size: 4 bytes. Created directories: new, new/dir.',
    });
    expect(await workspace.read(workspace.at('new/dir/b.txt'))).toBe('two\n');
  });

  test('both fail: the last to end removes the directories, leaving nothing behind', async ({
    workspace,
  }) => {
    const failed = signal();
    const other = `${'y'.repeat(300)}.txt`;
    const { fs } = holdingLockOf(workspace, other, failed.promise, true);
    const tool = new WriteFile(workspace.runtime({ fs }));
    const results = await Promise.all([
      tool.call({ path: `new/dir/${TOO_LONG}`, content: 'one\n' }).finally(failed.fire),
      tool.call({ path: `new/dir/${other}`, content: 'two\n' }),
    ]);
    expect(results.map((result) => result.brief)).toEqual(['Failed to write file', 'Failed to write file']);
    expect(await workspace.list()).toEqual([]);
  });
});

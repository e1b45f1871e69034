import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core/fs';
import { forwardingFileSystem, test } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import { ApplyPatch } from './index.js';

/** A file whose name the file system refuses (over 255 bytes): its patch fails once its directories are made. */
const TOO_LONG = `${'x'.repeat(300)}.txt`;

const adding = (file: string, line: string) =>
  ['*** Begin Patch', `*** Add File: ${file}`, `+${line}`, '*** End Patch'].join('\n');

test('a patch adding a file to a directory another patch made, which then fails, is written', async ({
  workspace,
}) => {
  const directory = workspace.at('new/dir');
  let lockAsked!: () => void;
  const asked = new Promise<void>((resolve) => (lockAsked = resolve));
  let failed!: () => void;
  const ended = new Promise<void>((resolve) => (failed = resolve));
  // The patch adding b.txt has made sure of its directory and asks for its lock file when the other's rename fails;
  // it gets it once the other has ended, and cleaned up after itself.
  const base = forwardingFileSystem(workspace.fs);
  const fs: FileSystem = {
    ...base,
    create: async (file, mode) => {
      if (file === path.join(directory, '.b.txt.kimi-lock')) {
        lockAsked();
        await ended;
      }
      return base.create(file, mode);
    },
    rename: async (from, to) => {
      if (to === path.join(directory, TOO_LONG)) await asked;
      return base.rename(from, to);
    },
  };
  const tool = new ApplyPatch(workspace.runtime({ fs }));
  const [failing, writing] = await Promise.all([
    tool.call({ patch: adding(`new/dir/${TOO_LONG}`, 'one') }).finally(failed),
    tool.call({ patch: adding('new/dir/b.txt', 'two') }),
  ]);
  expect(failing.message).toMatch(
    /^Writing the patch failed: ENAMETOOLONG: name too long, rename '.*'\. No file was changed\.$/,
  );
  expect(writing).toMatchObject({
    isError: false,
    message: 'Success. Updated the following files:\nA new/dir/b.txt',
  });
  expect(await workspace.read(workspace.at('new/dir/b.txt'))).toBe('two\n');
  expect(await workspace.list('new/dir')).toEqual(['b.txt']);
});

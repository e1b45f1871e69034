import { FileHistory } from '@kimi-tools/core';
import { withFileLock } from '@kimi-tools/core/toolkit';
import {
  backendHas,
  forwardingFileSystem,
  inPlaceFails,
  inPlaceFlushFailsOnce,
  markRead,
  statsLostAfterRename,
  test,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

/** The kit's test, with a runtime that keeps a file history, and a WriteFile on it. */
const it = test
  .extend('history', () => new FileHistory())
  .extend('historyRuntime', ({ workspace, history }) => workspace.runtime({ history }))
  .extend('tool', ({ historyRuntime }) => new WriteFile(historyRuntime));

describe('WriteFile and history.undo()', () => {
  it('undoes change after change, each back to what the one before wrote', async ({
    workspace,
    historyRuntime,
    history,
    tool,
  }) => {
    const file = workspace.at('a.txt');
    await tool.call({ path: 'a.txt', content: 'one\n' });
    await markRead(historyRuntime, file);
    await tool.call({ path: 'a.txt', content: 'two\n' });
    await markRead(historyRuntime, file);
    await tool.call({ path: 'a.txt', content: 'three\n' });

    expect(await history.undo()).toMatchObject([{ path: file, version: 3 }]);
    expect(await workspace.read(file)).toBe('two\n');
    // The file is a new one of the same bytes now (the undo wrote it): what the change before wrote, all the same.
    expect(await history.undo()).toMatchObject([{ path: file, version: 2 }]);
    expect(await workspace.read(file)).toBe('one\n');
    expect(await history.undo()).toMatchObject([{ path: file, version: 1, size: null }]);
    await expect(workspace.fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await history.undo()).toEqual([]);
  });

  // history.undo() and history.restore() wrote to the path saved, through whatever it led to now: a directory swapped
  // for a link after the change took what was put back wherever the link leads (out of the workspace).
  it('puts nothing back through a directory that became a link since, and says so', async ({
    workspace,
    historyRuntime,
    history,
    tool,
  }) => {
    const file = workspace.at('d/a.txt');
    await tool.call({ path: 'd/a.txt', content: 'one\n' });
    await markRead(historyRuntime, file);
    await tool.call({ path: 'd/a.txt', content: 'two\n' });
    // Another process moves the directory away and puts a link to another one, holding the same bytes, in its place.
    await workspace.fs.rename(workspace.at('d'), workspace.at('moved'));
    await workspace.write('elsewhere/a.txt', 'two\n');
    await workspace.fs.symlink(workspace.at('elsewhere'), workspace.at('d'));
    const moved = (action: string) =>
      'These files now resolve elsewhere than where they were saved from (a directory on the way became a link or ' +
      `was moved): ${file}. Nothing was ${action}.`;
    await expect(history.undo()).rejects.toThrow(moved('undone'));
    await expect(history.restore(file, 1)).rejects.toThrow(moved('restored'));
    expect(await workspace.read('elsewhere/a.txt')).toBe('two\n');
    expect((await workspace.fs.readdir(workspace.at('elsewhere'))).map((entry) => entry.name)).toEqual([
      'a.txt',
    ]);
    expect(await workspace.read('moved/a.txt')).toBe('two\n');
    // The unit stays: with the directory back, the undo puts the file back.
    await workspace.fs.unlink(workspace.at('d'));
    await workspace.fs.rename(workspace.at('moved'), workspace.at('d'));
    expect(await history.undo()).toMatchObject([{ path: file, version: 2 }]);
    expect(await workspace.read('d/a.txt')).toBe('one\n');
  });

  it('puts nothing back over an edit made after the change, and keeps the unit', async ({
    workspace,
    historyRuntime,
    history,
    tool,
  }) => {
    const file = workspace.at('a.txt');
    await workspace.write('a.txt', 'mine\n', { readBy: historyRuntime });
    await tool.call({ path: 'a.txt', content: 'agent\n' });
    // The user edits the file after the agent: same size, so only the content tells.
    await workspace.write('a.txt', 'user!\n');

    await expect(history.undo()).rejects.toThrow(
      `These files changed after the change being undone: ${file}. Nothing was undone; ` +
        'history.restore(path, version) puts back one version and saves what the file holds first.',
    );
    expect(await workspace.read(file)).toBe('user!\n');
    expect(history.list()).toHaveLength(1);
    // The way the message gives: the saved version back, and the user's content saved first.
    await history.restore(file);
    expect(await workspace.read(file)).toBe('mine\n');
    expect(await history.undo()).toMatchObject([{ path: file }]);
    expect(await workspace.read(file)).toBe('user!\n');
  });

  it('undoes the creation of a file the user has removed since: there is nothing to lose', async ({
    workspace,
    history,
    tool,
  }) => {
    const file = workspace.at('new.txt');
    await tool.call({ path: 'new.txt', content: 'agent\n' });
    await workspace.fs.unlink(file);
    expect(await history.undo()).toMatchObject([{ path: file, size: null }]);
    await expect(workspace.fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('undoes the creation of a file whose directory the user has removed since', async ({
    workspace,
    history,
    tool,
  }) => {
    const file = workspace.at('made/new.txt');
    await tool.call({ path: 'made/new.txt', content: 'agent\n' });
    await workspace.fs.unlink(file);
    await workspace.fs.rmdir(workspace.at('made'));
    expect(await history.undo()).toMatchObject([{ path: file, size: null }]);
    await expect(workspace.fs.stat(workspace.at('made'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps no version of a change refused at its last look: an undo never puts it back', async ({
    workspace,
  }) => {
    const file = workspace.at('a.txt');
    // Another writer takes the file over between the save and the commit: its lock is gone, its content written.
    class OvertakenHistory extends FileHistory {
      override async save(...args: Parameters<FileHistory['save']>) {
        const entry = await super.save(...args);
        await workspace.fs.unlink(workspace.at('.a.txt.kimi-lock'));
        await workspace.write('a.txt', 'theirs\n');
        return entry;
      }
    }
    const history = new OvertakenHistory();
    const runtime = workspace.runtime({ history });
    await workspace.write('a.txt', 'mine\n', { readBy: runtime });
    expect((await new WriteFile(runtime).call({ path: 'a.txt', content: 'agent\n' })).brief).toBe(
      'File modified',
    );
    expect(history.list()).toEqual([]);
    expect(await history.undo()).toEqual([]);
    expect(await workspace.read(file)).toBe('theirs\n');
  });

  it('never puts back a failed change over a later edit', async ({ workspace, history }) => {
    let renames = 0;
    const fs = {
      ...forwardingFileSystem(workspace.fs),
      async rename(from: string, to: string) {
        if (++renames === 1)
          throw Object.assign(new Error(`EIO: i/o error, rename '${from}'`), { code: 'EIO' });
        await workspace.fs.rename(from, to);
      },
    };
    const runtime = workspace.runtime({ fs, history });
    await workspace.write('a.txt', 'mine\n', { readBy: runtime });
    expect((await new WriteFile(runtime).call({ path: 'a.txt', content: 'agent\n' })).isError).toBe(true);
    await workspace.write('a.txt', 'user work\n');
    await expect(history.undo()).rejects.toThrow('These files changed after the change being undone');
    expect(await workspace.read(workspace.at('a.txt'))).toBe('user work\n');
  });

  it.runIf(backendHas('hard-links'))(
    'keeps the version of a change whose rewrite in place failed, and undoes it',
    async ({ workspace, history }) => {
      const file = workspace.at('a.txt');
      // The in-place rewrite of a hard-linked file (it keeps the link shared) fails at its flush.
      const fs = inPlaceFlushFailsOnce(workspace.fs, file);
      const runtime = workspace.runtime({ fs, history });
      await workspace.write('a.txt', 'mine, precious\n', { readBy: runtime });
      await workspace.link('b.txt', 'a.txt');
      expect((await new WriteFile(runtime).call({ path: 'a.txt', content: 'agent\n' })).isError).toBe(true);
      // The rewrite put the old bytes back; the undo then finds the very content it saved, and has nothing to lose.
      expect(await workspace.read(file)).toBe('mine, precious\n');
      expect(await history.undo()).toMatchObject([{ path: file, size: 15 }]);
      expect(await workspace.read(file)).toBe('mine, precious\n');
    },
  );

  it.runIf(backendHas('hard-links'))(
    'says a hard-linked file may be part rewritten when its old bytes could not be put back, and undoes it',
    async ({ workspace, history }) => {
      const file = workspace.at('a.txt');
      // The rewrite's write fails, and so does the write that puts the old bytes back; the undo's goes through.
      const fs = inPlaceFails(workspace.fs, file, 'write', (call) => call <= 2);
      const runtime = workspace.runtime({ fs, history });
      await workspace.write('a.txt', 'mine, precious\n', { readBy: runtime });
      await workspace.link('b.txt', 'a.txt');
      expect((await new WriteFile(runtime).call({ path: 'a.txt', content: 'agent\n' })).message).toBe(
        `Failed to write to a.txt. Error: EIO: i/o error, write '${file}'; '${file}' could not be restored and may hold part of its new content`,
      );
      expect(await history.undo()).toMatchObject([{ path: file, size: 15 }]);
      expect(await workspace.read(workspace.at('b.txt'))).toBe('mine, precious\n');
    },
  );

  it('undoes a change whose file could not be looked at after its commit, by the bytes it wrote', async ({
    workspace,
    history,
  }) => {
    const fs = statsLostAfterRename(workspace.fs);
    const runtime = workspace.runtime({ fs, history });
    await workspace.write('a.txt', 'mine\n', { readBy: runtime });
    expect((await new WriteFile(runtime).call({ path: 'a.txt', content: 'agent\n' })).isError).toBe(false);
    expect(await history.undo()).toHaveLength(1);
    expect(await workspace.read(workspace.at('a.txt'))).toBe('mine\n');
  });

  it.runIf(backendHas('huge-files'))(
    'undoes twice a file too big to hash, which the first undo wrote anew',
    async ({ workspace, historyRuntime, history, tool }) => {
      const file = workspace.at('big.txt');
      const big = (letter: string) => `${letter.repeat(1023)}\n`.repeat(65 * 1024);
      await workspace.write('big.txt', 'small\n', { readBy: historyRuntime });
      await tool.call({ path: 'big.txt', content: big('a') });
      await markRead(historyRuntime, file);
      expect((await tool.call({ path: 'big.txt', content: big('b') })).isError).toBe(false);
      expect(await history.undo()).toHaveLength(1);
      expect((await workspace.read(file)).slice(0, 3)).toBe('aaa');
      expect(await history.undo()).toHaveLength(1);
      expect(await workspace.read(file)).toBe('small\n');
    },
  );

  it('puts a changed file back where it was, making again the directory the user has removed since', async ({
    workspace,
    historyRuntime,
    history,
    tool,
  }) => {
    const file = workspace.at('made/a.txt');
    await workspace.write('made/a.txt', 'before\n', { readBy: historyRuntime });
    await tool.call({ path: 'made/a.txt', content: 'after\n' });
    await workspace.fs.unlink(file);
    await workspace.fs.rmdir(workspace.at('made'));
    expect(await history.undo()).toMatchObject([{ path: file }]);
    expect(await workspace.read(file)).toBe('before\n');
  });

  it("waits for the file's lock, as a write does", async ({ workspace, historyRuntime, history, tool }) => {
    const file = workspace.at('a.txt');
    await workspace.write('a.txt', 'before\n', { readBy: historyRuntime });
    await tool.call({ path: 'a.txt', content: 'after\n' });

    let release!: () => void;
    let undone = false;
    const holding = withFileLock(
      workspace.fs,
      file,
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    await expect.poll(() => release).toBeDefined();
    const undoing = history.undo().then((entries) => ((undone = true), entries));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(undone).toBe(false);
    expect(await workspace.read(file)).toBe('after\n');
    release();
    await holding;
    expect(await undoing).toMatchObject([{ path: file }]);
    expect(await workspace.read(file)).toBe('before\n');
  });
});

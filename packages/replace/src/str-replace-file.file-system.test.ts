import { FileHistory } from '@kimi-tools/core';
import {
  backendHas,
  inPlaceFails,
  markRead,
  rewriteKeepingMtime,
  SFTP_CAPABILITIES,
  test,
  translatedRuntime,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './index.js';

const SUCCESS = 'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).';

// The runtime's file system shows the workspace at /virtual: an edit that read or wrote the disk directly would not
// find the file. The change observer tells the paths apart: the in-memory one reports every change, the streamed one
// none (docs/change-observers.md).
describe.each([
  ['the local disk', {}],
  ['SFTP', { capabilities: SFTP_CAPABILITIES }],
])('StrReplaceFile through the runtime’s file system (as %s can do)', (_name, options) => {
  for (const [path, streamAboveBytes] of [
    ['in memory', undefined],
    ['streamed', 1],
  ] as const) {
    test(`edits a file it read, ${path}, with history and no file left behind`, async ({ workspace }) => {
      const history = new FileHistory();
      const { runtime, at, files } = translatedRuntime(workspace, { ...options, history });
      const observed: string[] = [];
      runtime.changeObservers.add({
        name: 'watch',
        changeApplied: (change) => void observed.push(change.path.real),
      });
      await workspace.write('a.txt', 'alpha\nbeta\ngamma\n');
      await markRead(runtime, at('a.txt'));
      const tool = new StrReplaceFile(runtime, { streamAboveBytes });
      const result = await tool.call({ path: 'a.txt', edit: { old: 'beta', new: 'BETA' } });
      expect(result.message).toBe(SUCCESS);
      expect(result.output).toBe('     1\talpha\n     2\tBETA\n     3\tgamma\n');
      expect(await workspace.read(workspace.at('a.txt'))).toBe('alpha\nBETA\ngamma\n');
      expect(observed).toEqual(streamAboveBytes === undefined ? [at('a.txt')] : []);
      expect(await workspace.list()).toEqual(['a.txt']);
      // The next edit needs no new read: the write recorded its own stamp.
      expect((await tool.call({ path: 'a.txt', edit: { old: 'gamma', new: 'GAMMA' } })).message).toBe(
        SUCCESS,
      );
      await history.restore(at('a.txt'), 1);
      expect(await workspace.read(workspace.at('a.txt'))).toBe('alpha\nbeta\ngamma\n');
      expect(files.operations).toContain('open /virtual/work/a.txt');
    });

    test.runIf(backendHas('exact-times'))(
      `refuses, ${path}, a file rewritten since the read with its size and time kept`,
      async ({ workspace }) => {
        const { runtime, at } = translatedRuntime(workspace, options);
        await workspace.write('a.txt', 'value=1\n');
        await markRead(runtime, at('a.txt'));
        await rewriteKeepingMtime(workspace.at('a.txt'), 'value=2\n');
        const tool = new StrReplaceFile(runtime, { streamAboveBytes, modifiedSinceRead: 'refuse' });
        const result = await tool.call({ path: 'a.txt', edit: { old: 'value', new: 'name' } });
        expect(result.brief).toBe('File modified');
        expect(await workspace.read(workspace.at('a.txt'))).toBe('value=2\n');
      },
    );
  }
});

test.runIf(backendHas('hard-links'))(
  'StrReplaceFile leaves a hard-linked file as it was when its rewrite in place fails part way',
  async ({ workspace }) => {
    const file = workspace.at('a.txt');
    // The growth is written first and goes through; the overwrite of the old bytes fails.
    const runtime = workspace.runtime({
      fs: inPlaceFails(workspace.fs, file, 'write', (call) => call === 2),
    });
    await workspace.write('a.txt', 'alpha\nbeta\n', { readBy: runtime });
    await workspace.link('b.txt', 'a.txt');
    const result = await new StrReplaceFile(runtime).call({
      path: 'a.txt',
      edit: { old: 'beta', new: 'a longer beta' },
    });
    expect(result.message).toBe(`Failed to edit. Error: EIO: i/o error, write '${file}'`);
    expect(await workspace.read(workspace.at('b.txt'))).toBe('alpha\nbeta\n');
  },
);

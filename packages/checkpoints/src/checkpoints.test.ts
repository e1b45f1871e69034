import { createRuntime, type FileSystem } from '@kimi-tools/core';
import { memoryFileSystem } from '@kimi-tools/core/fs';
import { createTempWorkspace, forwardingFileSystem, recordingApproval } from '@kimi-tools/test-kit';
import { beforeEach, describe, expect, it } from 'vitest';
import { createCheckpoints, type Checkpoints } from './index.js';
import { agentWrite, bytesAt, describeOnEachBackend, put, snapshot } from './__fixtures__/backends.js';

const UTF16 = (text: string) => Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(text, 'utf16le')]);

describeOnEachBackend('checkpoints on the %s backend', ({ space, at }) => {
  let checkpoints: Checkpoints;

  beforeEach(async () => {
    checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
  });

  /** A tree with one file of every kind a rewind must bring back. */
  async function seed(): Promise<void> {
    const { fs } = space;
    await put(fs, at('.gitignore'), 'ignored/\n');
    await put(fs, at('src/edit.ts'), 'const a = 1;\n');
    await put(fs, at('gone.txt'), 'to be deleted\n');
    await put(fs, at('old-name.txt'), 'renamed content\n');
    await put(fs, at('run.sh'), '#!/bin/sh\necho hi\n', 0o644);
    await fs.symlink('src/edit.ts', at('link'));
    await put(fs, at('image.bin'), Uint8Array.of(0, 1, 2, 255, 0, 13, 10));
    await put(fs, at('windows.txt'), 'one\r\ntwo\r\n');
    await put(fs, at('utf16.txt'), UTF16('hello\nworld\n'));
    await put(fs, at('ignored/cache.txt'), 'not tracked\n');
  }

  /** Changes every file of the seed, by the agent's tools and by plain writes. */
  async function changeEverything(): Promise<void> {
    const { fs, runtime } = space;
    await agentWrite(runtime, 'src/edit.ts', 'const a = 2;\n');
    await agentWrite(runtime, 'src/new.ts', 'export {};\n');
    await fs.unlink(at('gone.txt'));
    await fs.rename(at('old-name.txt'), at('new-name.txt'));
    await fs.chmod(at('run.sh'), 0o755);
    await fs.unlink(at('link'));
    await fs.symlink('gone.txt', at('link'));
    await put(fs, at('image.bin'), Uint8Array.of(9, 9, 0, 0));
    await put(fs, at('windows.txt'), 'one\r\nTWO\r\nthree\r\n');
    await put(fs, at('utf16.txt'), UTF16('hello\nthere\n'));
    await put(fs, at('ignored/cache.txt'), 'changed, still not tracked\n');
    await put(fs, at('made/deep/file.txt'), 'in new directories\n');
  }

  it('rewinds every kind of change byte for byte, and the rewind itself can be undone', async () => {
    await seed();
    const first = await checkpoints.create('turn 1');
    expect(first).toMatchObject({ id: '1', label: 'turn 1' });
    expect(first.files.map((file) => file.path)).not.toContain('ignored/cache.txt');
    const seeded = await snapshot(space.fs, space.root);

    await changeEverything();
    const changed = await snapshot(space.fs, space.root);
    const second = await checkpoints.create('turn 2');
    expect(second.files).toEqual(
      [
        { path: 'image.bin', change: 'modified' },
        { path: 'link', change: 'modified' },
        { path: 'made/deep/file.txt', change: 'created' },
        { path: 'new-name.txt', change: 'renamed', from: 'old-name.txt' },
        { path: 'run.sh', change: 'modified' },
        { path: 'src/edit.ts', change: 'modified' },
        { path: 'src/new.ts', change: 'created' },
        { path: 'utf16.txt', change: 'modified' },
        { path: 'windows.txt', change: 'modified' },
        { path: 'gone.txt', change: 'deleted' },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );

    const result = await checkpoints.rewind('1');
    expect(result.kind).toBe('rewound');
    if (result.kind !== 'rewound') return;
    expect(result.leftAlone).toEqual([]);
    expect(result.before).toBe('2');
    expect(result.checkpoint).toMatchObject({ id: '3', label: 'rewind to 1' });
    // Everything is as it was, but the ignored file, which no checkpoint tracks.
    expect(await snapshot(space.fs, space.root)).toEqual({
      ...seeded,
      'ignored/cache.txt': changed['ignored/cache.txt'],
    });

    const undo = await checkpoints.rewind(result.before);
    expect(undo.kind).toBe('rewound');
    expect(await snapshot(space.fs, space.root)).toEqual(changed);
    expect((await checkpoints.list()).map((checkpoint) => [checkpoint.id, checkpoint.label])).toEqual([
      ['1', 'turn 1'],
      ['2', 'turn 2'],
      ['3', 'rewind to 1'],
      ['4', 'rewind to 2'],
    ]);
  });

  it('rewinds only the paths asked, a directory standing for what is under it', async () => {
    await seed();
    await checkpoints.create();
    await changeEverything();
    await checkpoints.create();
    const result = await checkpoints.rewind('1', { paths: ['src', `${space.root}/image.bin`] });
    expect(result.kind === 'rewound' && result.restored).toEqual([
      { path: 'image.bin', change: 'modified' },
      { path: 'src/edit.ts', change: 'modified' },
      { path: 'src/new.ts', change: 'created' },
    ]);
    expect((await bytesAt(space.fs, at('src/edit.ts'))).toString()).toBe('const a = 1;\n');
    expect((await bytesAt(space.fs, at('windows.txt'))).toString()).toBe('one\r\nTWO\r\nthree\r\n');
    await expect(checkpoints.rewind('1', { paths: ['../elsewhere'] })).rejects.toThrow(
      '../elsewhere is not in the workspace; a rewind only restores files of the workspace.',
    );
    await expect(checkpoints.rewind('9')).rejects.toThrow('There is no checkpoint 9.');
  });

  it('diffs two checkpoints, and a checkpoint and now, as the write tools show their changes', async () => {
    await put(space.fs, at('a.txt'), 'one\ntwo\n');
    await checkpoints.create();
    await put(space.fs, at('a.txt'), 'one\nTWO\n');
    await put(space.fs, at('b.bin'), Uint8Array.of(0, 1, 2));
    const now = await checkpoints.diff('1');
    expect(now.map(({ path, change, note }) => ({ path, change, note }))).toEqual([
      { path: 'a.txt', change: 'modified', note: undefined },
      { path: 'b.bin', change: 'created', note: 'binary' },
    ]);
    expect(now[0]!.blocks).toEqual([
      expect.objectContaining({
        type: 'diff',
        path: at('a.txt'),
        oldText: 'one\ntwo',
        newText: 'one\nTWO',
      }),
    ]);
    await checkpoints.create();
    expect((await checkpoints.diff('1', '2')).map((diff) => diff.path)).toEqual(['a.txt', 'b.bin']);
    expect(await checkpoints.diff('2', 'now')).toEqual([]);
  });

  describe('a file the user changed after the agent', () => {
    beforeEach(async () => {
      await put(space.fs, at('notes.txt'), '1\n2\n3\n4\n5\n');
      await put(space.fs, at('other.txt'), 'before\n');
      await checkpoints.create('start');
      await agentWrite(space.runtime, 'notes.txt', '1\nagent\n3\n4\n5\n');
      await agentWrite(space.runtime, 'other.txt', 'after\n');
      await checkpoints.create('end of turn');
    });

    it('stops the rewind before writing anything, and lists it', async () => {
      await put(space.fs, at('notes.txt'), '1\nagent\n3\n4\nuser\n');
      const before = await snapshot(space.fs, space.root);
      expect(await checkpoints.rewind('1')).toEqual({
        kind: 'blocked',
        files: [{ path: 'notes.txt', reason: 'user-changed' }],
      });
      expect(await snapshot(space.fs, space.root)).toEqual(before);
      expect(await checkpoints.list()).toHaveLength(2);
    });

    it('keeps the user version when told to, and rewinds the rest', async () => {
      await put(space.fs, at('notes.txt'), '1\nagent\n3\n4\nuser\n');
      const result = await checkpoints.rewind('1', { resolve: { 'notes.txt': 'keep' } });
      expect(result).toMatchObject({
        kind: 'rewound',
        restored: [{ path: 'other.txt', change: 'modified' }],
        leftAlone: [{ path: 'notes.txt', reason: 'user-changed' }],
      });
      expect((await bytesAt(space.fs, at('notes.txt'))).toString()).toBe('1\nagent\n3\n4\nuser\n');
      expect((await bytesAt(space.fs, at('other.txt'))).toString()).toBe('before\n');
    });

    it("takes the checkpoint's version when told to", async () => {
      await put(space.fs, at('notes.txt'), '1\nagent\n3\n4\nuser\n');
      const result = await checkpoints.rewind('1', { resolve: { 'notes.txt': 'take' } });
      expect(result.kind).toBe('rewound');
      expect((await bytesAt(space.fs, at('notes.txt'))).toString()).toBe('1\n2\n3\n4\n5\n');
    });

    it("merges: the agent's change taken back, the user's kept", async () => {
      await put(space.fs, at('notes.txt'), '1\nagent\n3\n4\nuser\n');
      const result = await checkpoints.rewind('1', { resolve: { 'notes.txt': 'merge' } });
      expect(result).toMatchObject({ kind: 'rewound', merged: [{ path: 'notes.txt', conflicts: 0 }] });
      expect((await bytesAt(space.fs, at('notes.txt'))).toString()).toBe('1\n2\n3\n4\nuser\n');
    });

    it('merges with conflict markers where the user changed the lines the agent did', async () => {
      await put(space.fs, at('notes.txt'), '1\nuser\n3\n4\n5\n');
      const result = await checkpoints.rewind('1', { resolve: { 'notes.txt': 'merge' } });
      expect(result).toMatchObject({ kind: 'rewound', merged: [{ path: 'notes.txt', conflicts: 1 }] });
      expect((await bytesAt(space.fs, at('notes.txt'))).toString()).toBe(
        "1\n<<<<<<< checkpoint 1\n2\n=======\nuser\n>>>>>>> user's version\n3\n4\n5\n",
      );
    });

    it('takes a file changed since the last checkpoint without the tools for the user', async () => {
      await put(space.fs, at('fresh.txt'), 'the user made this\n');
      expect(await checkpoints.rewind('1')).toEqual({
        kind: 'blocked',
        files: [{ path: 'fresh.txt', reason: 'user-changed' }],
      });
      const kept = await checkpoints.rewind('1', { resolve: { 'fresh.txt': 'keep' } });
      expect(kept.kind).toBe('rewound');
      expect((await bytesAt(space.fs, at('fresh.txt'))).toString()).toBe('the user made this\n');
    });
  });
});

describe('a rewind that cannot finish', () => {
  it('puts every file back when a write fails midway, and says which could not be', async () => {
    const store = await createTempWorkspace();
    const memory = memoryFileSystem({ files: { '/work/a.txt': 'a1\n', '/work/b.txt': 'b1\n' } });
    // The memory backend with one failure injected: the rename onto b.txt, after a.txt's went through.
    const failing = new Proxy(memory, {
      get(target, property) {
        if (property === 'rename') {
          return async (from: string, to: string) => {
            if (to === '/work/b.txt') {
              throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
            }
            return target.rename(from, to);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    }) as FileSystem;
    const runtime = createRuntime({ workDir: '/work', approval: recordingApproval(), fs: failing });
    const checkpoints = createCheckpoints(runtime, { dir: store.outside('store') });
    try {
      await checkpoints.create();
      await put(memory, '/work/a.txt', 'a2\n');
      await put(memory, '/work/b.txt', 'b2\n');
      await checkpoints.create();
      const before = await snapshot(memory, '/work');
      expect(await checkpoints.rewind('1')).toEqual({
        kind: 'failed',
        message: 'ENOSPC: no space left on device',
        unrestored: [],
      });
      expect(await snapshot(memory, '/work')).toEqual(before);
      expect((await checkpoints.list()).map((checkpoint) => checkpoint.label)).toEqual([
        undefined,
        undefined,
      ]);
    } finally {
      await store.cleanup();
    }
  });

  it('is rewound when a directory it removes after the commit cannot be removed: every file is restored', async () => {
    const store = await createTempWorkspace();
    const memory = memoryFileSystem({ files: { '/work/a.txt': 'a1\n' } });
    const failing: FileSystem = {
      ...forwardingFileSystem(memory),
      rmdir: async (path) => {
        throw Object.assign(new Error(`EIO: i/o error, rmdir '${path}'`), { code: 'EIO' });
      },
    };
    const runtime = createRuntime({ workDir: '/work', approval: recordingApproval(), fs: failing });
    const checkpoints = createCheckpoints(runtime, { dir: store.outside('store') });
    try {
      await checkpoints.create();
      await put(memory, '/work/a.txt', 'a2\n');
      await put(memory, '/work/made/b.txt', 'b\n');
      await checkpoints.create();
      expect(await checkpoints.rewind('1')).toMatchObject({
        kind: 'rewound',
        restored: [
          { path: 'a.txt', change: 'modified' },
          { path: 'made/b.txt', change: 'created' },
        ],
      });
      // The directory stays, empty; the state after the rewind is recorded.
      expect(await snapshot(memory, '/work')).toEqual({ 'a.txt': 'file 644 61310a', made: 'dir 755' });
      expect((await checkpoints.list()).at(-1)?.label).toBe('rewind to 1');
    } finally {
      await store.cleanup();
    }
  });

  it('writes nothing when a file changes while the approval is open', async () => {
    const store = await createTempWorkspace();
    const fs = memoryFileSystem({ files: { '/work/a.txt': 'a1\n' } });
    const runtime = createRuntime({ workDir: '/work', approval: recordingApproval(), fs });
    const checkpoints = createCheckpoints(runtime, { dir: store.outside('store') });
    try {
      await checkpoints.create();
      await put(fs, '/work/a.txt', 'a2\n');
      await checkpoints.create();
      const result = await checkpoints.rewind('1', {
        approve: async (preview) => {
          expect(preview.restore).toEqual([{ path: 'a.txt', change: 'modified' }]);
          await put(fs, '/work/a.txt', 'the user, meanwhile\n');
          return true;
        },
      });
      expect(result).toEqual({ kind: 'changed', paths: ['a.txt'] });
      expect((await bytesAt(fs, '/work/a.txt')).toString()).toBe('the user, meanwhile\n');
    } finally {
      await store.cleanup();
    }
  });
});

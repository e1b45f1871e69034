import { createRuntime, type FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem, recordingApproval } from '@kimi-tools/test-kit';
import { expect, it } from 'vitest';
import { createCheckpoints } from './index.js';
import { bytesAt, describeOnEachBackend, put } from './__fixtures__/backends.js';

describeOnEachBackend('a rewind of a file with several hard links, on the %s backend', ({ space, at }) => {
  const text = async (relative: string) => (await bytesAt(space.fs, at(relative))).toString();
  /** Whether two names are still one file: the same inode, and two links. */
  const shared = async (a: string, b: string) => {
    const [one, two] = [await space.fs.stat(at(a)), await space.fs.stat(at(b))];
    return one.ino === two.ino && one.dev === two.dev && one.nlink === 2;
  };

  /** h.txt and h2.txt one file holding `v1`, checkpoint 1; rewritten in place to `v2`, checkpoint 2. */
  async function linkedAndRewritten(fs: FileSystem) {
    const runtime = createRuntime({ workDir: space.root, approval: recordingApproval(), fs });
    const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
    await put(space.fs, at('h.txt'), 'v1\n');
    await space.fs.link(at('h.txt'), at('h2.txt'));
    await put(space.fs, at('z.txt'), 'z1\n');
    await checkpoints.create('1');
    await put(space.fs, at('h.txt'), 'v2\n');
    await put(space.fs, at('z.txt'), 'z2\n');
    await checkpoints.create('2');
    return checkpoints;
  }

  it('rewrites it in place, so its names stay one file', async () => {
    const checkpoints = await linkedAndRewritten(space.fs);
    expect(await checkpoints.rewind('1')).toMatchObject({ kind: 'rewound' });
    expect([await text('h.txt'), await text('h2.txt'), await shared('h.txt', 'h2.txt')]).toEqual([
      'v1\n',
      'v1\n',
      true,
    ]);
  });

  it('puts back the checkpoint’s mode too, for all its names', async () => {
    const checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
    await put(space.fs, at('h.txt'), 'v1\n', 0o644);
    await space.fs.link(at('h.txt'), at('h2.txt'));
    await checkpoints.create('1');
    await put(space.fs, at('h.txt'), 'v2\n', 0o600);
    await checkpoints.create('2');
    expect(await checkpoints.rewind('1')).toMatchObject({ kind: 'rewound' });
    const modeOf = async (relative: string) => (await space.fs.stat(at(relative))).mode & 0o777;
    expect([
      await text('h2.txt'),
      await modeOf('h.txt'),
      await modeOf('h2.txt'),
      await shared('h.txt', 'h2.txt'),
    ]).toEqual(['v1\n', 0o644, 0o644, true]);
  });

  it('parts two names the checkpoint had as two files of different modes, each with its own', async () => {
    const checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
    await put(space.fs, at('h.txt'), 'v1\n', 0o644);
    await put(space.fs, at('h2.txt'), 'v1\n', 0o600);
    await checkpoints.create('1');
    await space.fs.unlink(at('h2.txt'));
    await space.fs.link(at('h.txt'), at('h2.txt'));
    await put(space.fs, at('h.txt'), 'v2\n');
    await checkpoints.create('2');
    expect(await checkpoints.rewind('1')).toMatchObject({ kind: 'rewound' });
    const modeOf = async (relative: string) => (await space.fs.stat(at(relative))).mode & 0o777;
    expect([
      await modeOf('h.txt'),
      await modeOf('h2.txt'),
      await text('h.txt'),
      await text('h2.txt'),
    ]).toEqual([0o644, 0o600, 'v1\n', 'v1\n']);
  });

  it('puts it back in place when the commit fails, so its names stay one file', async () => {
    const fs: FileSystem = {
      ...forwardingFileSystem(space.fs),
      // z.txt is renamed into place after the hard-linked file is rewritten.
      rename: async (from, to) => {
        if (to === at('z.txt'))
          throw Object.assign(new Error(`EIO: i/o error, rename '${to}'`), { code: 'EIO' });
        return space.fs.rename(from, to);
      },
    };
    const checkpoints = await linkedAndRewritten(fs);
    const result = await checkpoints.rewind('1');
    expect(result).toEqual({
      kind: 'failed',
      message: `EIO: i/o error, rename '${at('z.txt')}'`,
      unrestored: [],
    });
    expect([await text('h.txt'), await text('h2.txt'), await shared('h.txt', 'h2.txt')]).toEqual([
      'v2\n',
      'v2\n',
      true,
    ]);
  });

  it('replaces a name whose other name the scan does not see (ignored), which keeps its bytes', async () => {
    const checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
    await put(space.fs, at('.gitignore'), 'ignored/\n');
    await space.fs.mkdir(at('ignored'));
    await put(space.fs, at('h.txt'), 'v1\n');
    await space.fs.link(at('h.txt'), at('ignored/h.txt'));
    await checkpoints.create('1');
    await put(space.fs, at('h.txt'), 'v2\n');
    await checkpoints.create('2');
    expect(await checkpoints.rewind('1')).toMatchObject({ kind: 'rewound' });
    expect([
      await text('h.txt'),
      await text('ignored/h.txt'),
      await shared('h.txt', 'ignored/h.txt'),
    ]).toEqual(['v1\n', 'v2\n', false]);
  });

  it('splits a name from a file whose other name keeps different bytes', async () => {
    // At the checkpoint a.txt and b.txt are two files; then b.txt is made a second name of a.txt.
    const checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
    await put(space.fs, at('a.txt'), 'A\n');
    await put(space.fs, at('b.txt'), 'B\n');
    await checkpoints.create('1');
    await space.fs.unlink(at('b.txt'));
    await space.fs.link(at('a.txt'), at('b.txt'));
    await checkpoints.create('2');
    expect(await checkpoints.rewind('1')).toMatchObject({
      kind: 'rewound',
      restored: [{ path: 'b.txt', change: 'modified' }],
    });
    expect([await text('a.txt'), await text('b.txt')]).toEqual(['A\n', 'B\n']);
  });
});

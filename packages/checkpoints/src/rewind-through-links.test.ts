import type { FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCheckpoints } from './index.js';
import { describeOnEachBackend, put, snapshot } from './__fixtures__/backends.js';

describeOnEachBackend(
  'a rewind and the links planted in its way, on the %s backend',
  ({ space, at, runtimeOver }) => {
    let elsewhere: string;

    beforeEach(async () => {
      // A directory beside the workspace, outside it.
      elsewhere = `${space.root}-elsewhere`;
      await space.fs.mkdir(elsewhere);
    });
    afterEach(async () => {
      for (const entry of await space.fs.readdir(elsewhere))
        await space.fs.unlink(`${elsewhere}/${entry.name}`);
      await space.fs.rmdir(elsewhere);
    });

    it('leaves alone what the checkpoint had under a directory that is now a link, and writes nothing through it', async () => {
      const checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
      await put(space.fs, at('src/a.txt'), 'at the checkpoint\n');
      await put(space.fs, at('kept.txt'), 'one\n');
      await checkpoints.create('1');
      await space.fs.unlink(at('src/a.txt'));
      await space.fs.rmdir(at('src'));
      await space.fs.symlink(elsewhere, at('src'));
      await put(space.fs, at('kept.txt'), 'two\n');
      await checkpoints.create('2');

      const result = await checkpoints.rewind('1');
      expect(result).toMatchObject({
        kind: 'rewound',
        restored: [{ path: 'kept.txt', change: 'modified' }],
        leftAlone: [{ path: 'src', reason: 'type-changed' }],
      });
      expect(await space.fs.readdir(elsewhere)).toEqual([]);
      // The next checkpoint records no file under the link.
      expect((await checkpoints.create('3')).files).toEqual([]);
    });

    it('writes nothing when a directory becomes a link between the scan and the commit', async () => {
      await put(space.fs, at('src/a.txt'), 'at the checkpoint\n');
      await put(space.fs, at('b.txt'), 'one\n');
      let swapped = false;
      // The swap is made when the commit first looks at the file under the directory (the scan never does: the
      // file is gone from the index the scan compares with).
      const fs: FileSystem = {
        ...forwardingFileSystem(space.fs),
        lstat: async (path) => {
          if (path === at('src/a.txt') && armed && !swapped) {
            swapped = true;
            // As `rm -r` would: the rewind's lock file of src/a.txt is in it by then.
            for (const entry of await space.fs.readdir(at('src')))
              await space.fs.unlink(at(`src/${entry.name}`));
            await space.fs.rmdir(at('src'));
            await space.fs.symlink(elsewhere, at('src'));
          }
          return space.fs.lstat(path);
        },
      };
      let armed = false;
      const runtime = runtimeOver(fs);
      const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
      await checkpoints.create('1');
      await space.fs.unlink(at('src/a.txt'));
      await put(space.fs, at('b.txt'), 'two\n');
      await checkpoints.create('2');
      const before = await snapshot(space.fs, space.root);
      armed = true;

      const result = await checkpoints.rewind('1');
      expect(swapped).toBe(true);
      expect(result).toEqual({ kind: 'changed', paths: ['src/a.txt'] });
      expect(await space.fs.readdir(elsewhere)).toEqual([]);
      expect(await snapshot(space.fs, space.root)).toEqual({ ...before, src: `link -> ${elsewhere}` });
    });

    it('writes nothing when a directory becomes a link while the temp files are written', async () => {
      await put(space.fs, at('src/a.txt'), 'at the checkpoint\n');
      let armed = false;
      let swapped = false;
      // The swap is made once every check is done, as the commit makes the temp file of src/a.txt: it is made
      // through the link, and only the renames are left.
      const fs: FileSystem = {
        ...forwardingFileSystem(space.fs),
        create: async (path, mode) => {
          if (armed && !swapped && path.startsWith(at('src/.a.txt.kimi-tmp-'))) {
            swapped = true;
            for (const entry of await space.fs.readdir(at('src')))
              await space.fs.unlink(at(`src/${entry.name}`));
            await space.fs.rmdir(at('src'));
            await space.fs.symlink(elsewhere, at('src'));
          }
          return space.fs.create(path, mode);
        },
      };
      const runtime = runtimeOver(fs);
      const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
      await checkpoints.create('1');
      await put(space.fs, at('src/a.txt'), 'changed\n');
      await checkpoints.create('2');
      armed = true;

      const result = await checkpoints.rewind('1');
      expect(swapped).toBe(true);
      expect(result).toEqual({ kind: 'changed', paths: ['src/a.txt'] });
      expect(await space.fs.readdir(elsewhere)).toEqual([]);
    });
  },
);

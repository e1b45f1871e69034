import type { FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem } from '@kimi-tools/test-kit';
import { expect, it } from 'vitest';
import { createCheckpoints } from './index.js';
import { describeOnEachBackend, put } from './__fixtures__/backends.js';

// docs/checkpoints.md#rewind: a rewind that ends without writing removes the directories it made, as the write tools
// do (core's createDirectories), even one whose mkdir was made and whose answer a dropped connection lost.

/** `base`, where a mkdir of `lostAt` is made and then fails with ECONNRESET, as a connection dropped right after. */
function mkdirAnswerLost(base: FileSystem, lostAt: string): FileSystem {
  const forwarded = forwardingFileSystem(base);
  return {
    ...forwarded,
    async mkdir(directory, options) {
      await forwarded.mkdir(directory, options);
      if (directory === lostAt) {
        throw Object.assign(new Error(`ECONNRESET: connection lost, mkdir '${directory}'`), {
          code: 'ECONNRESET',
        });
      }
    },
  };
}

describeOnEachBackend(
  'a rewind that must make directories, on the %s backend',
  ({ space, at, runtimeOver }) => {
    /**
     * Checkpoint 1 with `deep/dir/a.txt` (`deep` and `deep/dir` given `modes` first), checkpoint 2 with all three gone:
     * a rewind to 1 makes both directories.
     */
    async function deepFileRemoved(modes: { deep?: number; dir?: number } = {}) {
      await put(space.fs, at('deep/dir/a.txt'), 'a1\n');
      if (modes.deep !== undefined) await space.fs.chmod(at('deep'), modes.deep);
      if (modes.dir !== undefined) await space.fs.chmod(at('deep/dir'), modes.dir);
      const checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
      await checkpoints.create('1');
      await space.fs.unlink(at('deep/dir/a.txt'));
      await space.fs.rmdir(at('deep/dir'));
      await space.fs.rmdir(at('deep'));
      await checkpoints.create('2');
      return checkpoints;
    }

    it('makes them with the checkpoint’s modes', async () => {
      const checkpoints = await deepFileRemoved({ deep: 0o700, dir: 0o750 });

      expect(await checkpoints.rewind('1')).toMatchObject({ kind: 'rewound' });
      expect((await space.fs.stat(at('deep'))).mode & 0o777).toBe(0o700);
      expect((await space.fs.stat(at('deep/dir'))).mode & 0o777).toBe(0o750);
    });

    it('removes a directory it made whose answer a dropped connection lost, with those before it', async () => {
      await deepFileRemoved();
      const runtime = runtimeOver(mkdirAnswerLost(space.fs, at('deep/dir')));

      const rewind = await createCheckpoints(runtime, { dir: space.storeDir }).rewind('1');
      expect(rewind).toMatchObject({ kind: 'failed' });
      expect(await space.fs.readdir(space.root)).toEqual([]);
    });
  },
);

import type { FileSystem } from '@kimi-tools/core';
import { applyFileChange } from '@kimi-tools/core/toolkit';
import { forwardingFileSystem, signal } from '@kimi-tools/test-kit';
import { expect, it } from 'vitest';
import { createCheckpoints } from './index.js';
import { describeOnEachBackend, put, snapshot } from './__fixtures__/backends.js';

// docs/writing.md#one-change-at-a-time: a rewind makes and removes directories as the runtime's other changes do. It
// made and removed its own at once, so a write of its runtime that had made `new/dir` and failed removed it while the
// rewind, which had found it there, was about to take its lock in it: the rewind threw Node's ENOENT.

describeOnEachBackend(
  'a rewind beside a write of its runtime that made a directory and failed, on the %s backend',
  ({ space, at, runtimeOver }) => {
    it('writes into the directory it found there, made again', async () => {
      const made = signal();
      const locking = signal();
      const failed = signal();
      // The write's rename fails (a full disk) once the rewind, which found its directories, asks for its lock there;
      // the rewind's lock file is created once the write has failed and removed them.
      const fs: FileSystem = {
        ...forwardingFileSystem(space.fs),
        mkdir: async (directory, options) => {
          await space.fs.mkdir(directory, options);
          if (directory === at('new/dir')) made.fire();
        },
        create: async (file, mode) => {
          if (file === at('new/dir/.b.txt.kimi-lock')) {
            locking.fire();
            await failed.promise;
          }
          return space.fs.create(file, mode);
        },
        rename: async (from, to) => {
          if (to !== at('new/dir/w.txt')) return space.fs.rename(from, to);
          await locking.promise;
          throw Object.assign(new Error(`ENOSPC: no space left on device, rename '${from}' -> '${to}'`), {
            code: 'ENOSPC',
          });
        },
      };
      const runtime = runtimeOver(fs);
      const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
      await put(space.fs, at('new/dir/b.txt'), 'b1\n');
      await checkpoints.create('1');
      await space.fs.unlink(at('new/dir/b.txt'));
      await space.fs.rmdir(at('new/dir'));
      await space.fs.rmdir(at('new'));
      await checkpoints.create('2');

      const resolved = await runtime.paths.resolveFile(at('new/dir/w.txt'), 'write');
      if (!resolved.ok) throw new Error(resolved.error.message);
      const writing = applyFileChange(runtime, {
        sender: 'WriteFile',
        verb: 'Write',
        path: resolved.path,
        oldBytes: null,
        newBytes: Buffer.from('w\n'),
        oldText: '',
        newText: 'w\n',
        checkReadState: false,
        createDirectories: [at('new'), at('new/dir')],
      });
      writing.catch(failed.fire);
      await made.promise;
      const rewinding = checkpoints.rewind('1');
      await expect(writing).rejects.toThrow('ENOSPC');
      expect(await rewinding).toMatchObject({ kind: 'rewound', restored: [{ path: 'new/dir/b.txt' }] });
      expect(Object.keys(await snapshot(space.fs, space.root))).toEqual(['new', 'new/dir', 'new/dir/b.txt']);
      expect(
        await space.fs.readdir(at('new/dir')).then((entries) => entries.map((entry) => entry.name)),
      ).toEqual(['b.txt']);
    });
  },
);

import { forwardingFileSystem, signal } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';
import { yoloApproval } from '../approval/approval.js';
import type { FileSystem } from '../fs/file-system.js';
import { memoryFileSystem } from '../fs/memory/memory-file-system.js';
import { readFileUpTo } from '../fs/regular-file.js';
import { createRuntime } from '../runtime/runtime.js';
import { applyFileChange } from '../write/apply-file-change.js';
import { FileHistory } from './file-history.js';

// docs/writing.md#one-change-at-a-time: an undo makes and removes directories as its runtime's changes do. It made and
// removed its own at once, so a write of the runtime that had made `new/dir` and failed removed it while the undo,
// which had found it there, was about to take its lock in it: the undo threw Node's ENOENT.

describe('history.undo() beside a write of its runtime that made a directory and failed', () => {
  it('puts the file back into the directory it found there, made again', async () => {
    const memory = memoryFileSystem({ files: { '/w/new/dir/b.txt': 'b1\n' } });
    const made = signal();
    const locking = signal();
    const failed = signal();
    let racing = false;
    // Once the race is on: the write's rename fails (a full disk) once the undo, which found the write's directories,
    // asks for its lock there; the undo's lock file is created once the write has failed and removed them.
    const fs: FileSystem = {
      ...forwardingFileSystem(memory),
      mkdir: async (directory, options) => {
        await memory.mkdir(directory, options);
        if (racing && directory === '/w/new/dir') made.fire();
      },
      create: async (file, mode) => {
        if (racing && file === '/w/new/dir/.b.txt.kimi-lock') {
          locking.fire();
          await failed.promise;
        }
        return memory.create(file, mode);
      },
      rename: async (from, to) => {
        if (to !== '/w/new/dir/w.txt') return memory.rename(from, to);
        await locking.promise;
        throw Object.assign(new Error(`ENOSPC: no space left on device, rename '${from}' -> '${to}'`), {
          code: 'ENOSPC',
        });
      },
    };
    const history = new FileHistory();
    const runtime = createRuntime({
      workDir: '/w',
      approval: yoloApproval(),
      readBeforeWrite: false,
      fs,
      history,
    });
    const resolve = async (input: string) => {
      const resolved = await runtime.paths.resolveFile(input, 'write');
      if (!resolved.ok) throw new Error(resolved.error.message);
      return resolved.path;
    };
    // The change to undo; then the user removes the file and its directories.
    await applyFileChange(runtime, {
      sender: 'WriteFile',
      verb: 'Write',
      path: await resolve('new/dir/b.txt'),
      oldBytes: Buffer.from('b1\n'),
      newBytes: Buffer.from('b2\n'),
      oldText: 'b1\n',
      newText: 'b2\n',
      checkReadState: false,
    });
    await memory.unlink('/w/new/dir/b.txt');
    await memory.rmdir('/w/new/dir');
    await memory.rmdir('/w/new');

    racing = true;
    const writing = applyFileChange(runtime, {
      sender: 'WriteFile',
      verb: 'Write',
      path: await resolve('new/dir/w.txt'),
      oldBytes: null,
      newBytes: Buffer.from('w\n'),
      oldText: '',
      newText: 'w\n',
      checkReadState: false,
      createDirectories: ['/w/new', '/w/new/dir'],
    });
    writing.catch(failed.fire);
    await made.promise;
    const undoing = history.undo();
    await expect(writing).rejects.toThrow('ENOSPC');
    // The failed write's unit may come first: its rename's outcome is unknown, so it is kept, and its undo removes
    // nothing (no w.txt); the next undo is the one of b.txt.
    const first = await undoing;
    const undone = first.some((entry) => entry.path === '/w/new/dir/b.txt') ? first : await history.undo();
    expect(undone).toMatchObject([{ path: '/w/new/dir/b.txt' }]);
    expect((await memory.readdir('/w/new/dir')).map((entry) => entry.name)).toEqual(['b.txt']);
    expect(Buffer.from(await readFileUpTo(memory, '/w/new/dir/b.txt', 100)).toString()).toBe('b1\n');
  });
});

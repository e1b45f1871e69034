import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileSystem, ToolRuntime } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { withFileLock } from '@kimi-tools/core/toolkit';
import { forwardingFileSystem, nextLine } from '@kimi-tools/test-kit';
import { expect, it } from 'vitest';
import { createCheckpoints, Rewind } from './index.js';
import { bytesAt, describeOnEachBackend, put, snapshot } from './__fixtures__/backends.js';
import { pausedAtCommit, raceRewind, startPausedWrite } from './__fixtures__/racing-writer.js';

// docs/checkpoints.md#rewind: a rewind takes the lock file of every path it writes, as the write tools do, so a write
// another runtime or process makes meanwhile is seen by its last check, never overwritten.

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
const LOCK_HOLDER = path.join(here, '__fixtures__/lock-holder.ts');

describeOnEachBackend('a rewind and another writer, on the %s backend', ({ space, at, runtimeOver }) => {
  /** The rewind's runtime, on `fs`, with checkpoints 1 (a.txt `a1`, b.txt `b1`) and 2 (`a2`, `b2`). */
  async function twoCheckpoints(runtime: ToolRuntime) {
    const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
    await put(space.fs, at('a.txt'), 'a1\n');
    await put(space.fs, at('b.txt'), 'b1\n');
    await checkpoints.create('1');
    await put(space.fs, at('a.txt'), 'a2\n');
    await put(space.fs, at('b.txt'), 'b2\n');
    await checkpoints.create('2');
    return checkpoints;
  }

  it("waits for another runtime's WriteFile holding a file's lock, then refuses that file as changed: nothing is written", async () => {
    const paused = pausedAtCommit(space.fs, space.root);
    const runtime = runtimeOver(paused.fs);
    const checkpoints = await twoCheckpoints(runtime);
    // The other agent's write has checked a.txt under its lock, and is about to put its content in place.
    const write = startPausedWrite(space.fs, space.root, at('a.txt'), 'the other agent\n');
    await write.inLock;

    // The rewind scans and plans with a.txt as `a2`; its commit then meets the other writer.
    expect(await raceRewind(() => checkpoints.rewind('1'), paused, write)).toEqual({
      write: 'written',
      rewind: { kind: 'changed', paths: ['a.txt'] },
    });
    expect(paused.waitedOnLock).toBe(true);
    expect(await snapshot(space.fs, space.root)).toEqual({
      'a.txt': `file 644 ${Buffer.from('the other agent\n').toString('hex')}`,
      'b.txt': `file 644 ${Buffer.from('b2\n').toString('hex')}`,
    });
  });

  /**
   * A runtime whose rewind finds a.txt's lock broken as stale at its last look before the commit (its first read of
   * a lock file): another writer has edited a.txt, then let its own lock go (`gone`) or still holds it (`held`).
   */
  function brokenBeforeCommit(taker: 'gone' | 'held') {
    const lock = at('.a.txt.kimi-lock');
    let broken = false;
    const fs: FileSystem = {
      ...forwardingFileSystem(space.fs),
      open: async (file, mode) => {
        if (!broken && file === lock && mode === 'read') {
          broken = true;
          await space.fs.unlink(lock);
          await put(space.fs, at('a.txt'), 'the other agent\n');
          if (taker === 'held') await put(space.fs, lock, `${process.pid}\nanother-writer-token\n`);
        }
        return space.fs.open(file, mode);
      },
    };
    const runtime = runtimeOver(fs);
    return { runtime, broken: () => broken };
  }

  it('writes nothing when a lock was broken as stale before its commit (a rewind suspended too long)', async () => {
    const lock = at('.a.txt.kimi-lock');
    for (const taker of ['gone', 'held'] as const) {
      const { runtime, broken } = brokenBeforeCommit(taker);
      const checkpoints = await twoCheckpoints(runtime);
      expect(await checkpoints.rewind('1')).toEqual({ kind: 'changed', paths: ['a.txt'] });
      expect(broken()).toBe(true);
      expect(await snapshot(space.fs, space.root)).toEqual({
        'a.txt': `file 644 ${Buffer.from('the other agent\n').toString('hex')}`,
        'b.txt': `file 644 ${Buffer.from('b2\n').toString('hex')}`,
        ...(taker === 'held'
          ? {
              '.a.txt.kimi-lock': `file 644 ${Buffer.from(`${process.pid}\nanother-writer-token\n`).toString('hex')}`,
            }
          : {}),
      });
      if (taker === 'held') await space.fs.unlink(lock);
    }
  });

  it('the Rewind tool tells the model which files changed after it looked at them', async () => {
    // Not "while the rewind waited for approval": this one asked for none, it found another writer's change.
    const { runtime } = brokenBeforeCommit('gone');
    await twoCheckpoints(runtime);
    expect(await new Rewind(runtime).call({ checkpoint: '1' })).toMatchObject({
      isError: true,
      brief: 'Workspace changed',
      message:
        'These files changed after the rewind looked at them: a.txt. Nothing was rewound; call Rewind again to see the changes as they are now.',
    });
  });
});

describeOnEachBackend(
  'a rewind and another process, on the %s backend',
  ({ space, at, runtimeOver }) => {
    it('waits for the lock file another process holds, and writes nothing over what it wrote under it', async () => {
      const paused = pausedAtCommit(localFileSystem, space.root);
      const runtime = runtimeOver(paused.fs);
      const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
      await put(localFileSystem, at('src/a.txt'), 'a1\n');
      await checkpoints.create('1');
      await put(localFileSystem, at('src/a.txt'), 'a2\n');
      await checkpoints.create('2');
      const holder = spawn(
        tsx,
        ['--conditions=@kimi-tools/source', LOCK_HOLDER, at('src/a.txt'), 'the process\n'],
        {
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      );
      try {
        expect(await nextLine(holder, 'the lock holder')).toBe('locked');
        const rewinding = checkpoints.rewind('1');
        await paused.reached;
        const released = nextLine(holder, 'the lock holder');
        holder.stdin?.write('write\n');
        expect(await released).toBe('released');
        paused.resume();

        expect(await rewinding).toEqual({ kind: 'changed', paths: ['src/a.txt'] });
        expect(paused.waitedOnLock).toBe(true);
        expect((await bytesAt(localFileSystem, at('src/a.txt'))).toString()).toBe('the process\n');
        expect(await snapshot(localFileSystem, space.root)).toEqual({
          src: 'dir 755',
          'src/a.txt': `file 644 ${Buffer.from('the process\n').toString('hex')}`,
        });
      } finally {
        holder.kill();
      }
    });

    it('fails, changing nothing, when another writer holds a lock past the wait: the message every writer gives', async () => {
      const runtime = runtimeOver(space.fs);
      const checkpoints = createCheckpoints(runtime, { dir: space.storeDir });
      await put(localFileSystem, at('a.txt'), 'a1\n');
      await put(localFileSystem, at('made/c.txt'), 'c1\n');
      await checkpoints.create('1');
      await put(localFileSystem, at('a.txt'), 'a2\n');
      await localFileSystem.unlink(at('made/c.txt'));
      await localFileSystem.rmdir(at('made'));
      await checkpoints.create('2');
      const before = await snapshot(localFileSystem, space.root);
      // A live writer (this process, refreshing its lock) holds a.txt's lock through the rewind's whole wait.
      const result = await withFileLock(localFileSystem, at('a.txt'), () =>
        new Rewind(runtime).call({ checkpoint: '1' }),
      );
      expect(result).toMatchObject({
        isError: true,
        brief: 'Tool failed',
        message: `Failed to run Rewind. Error: ${at('a.txt')} is locked by another writer (${at('.a.txt.kimi-lock')}); try again later.`,
      });
      // The directory made for c.txt is gone again, and so is every lock file.
      expect(await snapshot(localFileSystem, space.root)).toEqual(before);
    }, 60_000);
  },
  ['local'],
);

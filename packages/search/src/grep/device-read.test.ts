import { it } from '@kimi-tools/test-kit';
import { describe, expect, vi } from 'vitest';
import { localFileSystem } from '@kimi-tools/core/fs';
import { processStarter } from '../__fixtures__/started-processes.js';
import { isEndlessDevice, readsDevice } from './device-read.js';

const started = processStarter();

/** A process that sleeps with its standard streams on `/dev/null` and, through `shell`, maybe more open. */
const start = (shell: string) => started('sh', ['-c', shell]);

describe.runIf(process.platform === 'linux')('readsDevice', () => {
  it('tells a process holding a device open from one holding only its standard streams', async () => {
    // Waited for: until the program is started, /proc shows what the process forking it holds.
    const holding = start('exec sleep 60 3</dev/zero');
    await vi.waitFor(async () => expect(await readsDevice(localFileSystem, holding)).toBe(true), {
      timeout: 10_000,
    });
    const sleeping = start('exec sleep 60');
    await vi.waitFor(async () => expect(await readsDevice(localFileSystem, sleeping)).toBe(false), {
      timeout: 10_000,
    });
    // /dev/null ends at once: an ignore file linked to it (a common way to switch one off) holds nothing up.
    const nulled = start('exec sleep 60 3</dev/null');
    await vi.waitFor(async () => expect(await readsDevice(localFileSystem, nulled)).toBe(false), {
      timeout: 10_000,
    });
  });

  it('cannot tell for a process that does not exist', async () => {
    expect(await readsDevice(localFileSystem, 2 ** 22 + 1)).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('isEndlessDevice', () => {
  it('is a device but /dev/null, through links too; never a file', async ({ workspace }) => {
    const file = await workspace.write('plain.txt', 'x');
    await workspace.symlink('to-null', '/dev/null');
    await workspace.symlink('to-zero', '/dev/zero');
    const verdicts = await Promise.all(
      ['/dev/zero', '/dev/urandom', '/dev/null', workspace.at('to-null'), workspace.at('to-zero'), file].map(
        (path) => isEndlessDevice(localFileSystem, path),
      ),
    );
    expect(verdicts).toEqual([true, true, false, false, true, false]);
  });
});

import { execFileSync } from 'node:child_process';
import { it } from '@kimi-tools/test-kit';
import { describe, expect, vi } from 'vitest';
import { localFileSystem } from '@kimi-tools/core/fs';
import { processStarter } from '../__fixtures__/started-processes.js';
import { waitsOnFifoOpen } from './fifo-wait.js';

const start = processStarter();

describe.runIf(process.platform === 'linux')('waitsOnFifoOpen', () => {
  it('tells a process stuck opening a FIFO from one that is not', async ({ workspace }) => {
    execFileSync('mkfifo', [workspace.at('pipe')]);
    const stuck = start('cat', [workspace.at('pipe')]);
    await vi.waitFor(async () => expect(await waitsOnFifoOpen(localFileSystem, stuck)).toBe(true), {
      timeout: 10_000,
    });
    const sleeping = start('sleep', ['60']);
    await vi.waitFor(async () => expect(await waitsOnFifoOpen(localFileSystem, sleeping)).toBe(false), {
      timeout: 10_000,
    });
  });

  it('cannot tell for a process that does not exist', async () => {
    expect(await waitsOnFifoOpen(localFileSystem, 2 ** 22 + 1)).toBeNull();
  });
});

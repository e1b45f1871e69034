import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { it } from '@kimi-tools/test-kit';
import { afterEach, describe, expect, vi } from 'vitest';
import { localFileSystem } from '@kimi-tools/core/fs';
import { waitsOnFifoOpen } from './fifo-wait.js';

const children: ChildProcess[] = [];

function start(command: string, args: string[]): number {
  const child = spawn(command, args, { stdio: 'ignore' });
  children.push(child);
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  return child.pid;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

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

import { localFileSystem as fs } from '@kimi-tools/core/fs';
import { describe, expect, it } from 'vitest';
import { runRipgrep } from './run-ripgrep.js';

describe.skipIf(process.platform === 'win32')('runRipgrep', () => {
  it('stops a process whose output passes the limit, keeping what it printed', async () => {
    const run = await runRipgrep({
      fs,
      binary: '/bin/sh',
      args: ['-c', 'while :; do echo zebra; done'],
      cwd: process.cwd(),
      timeoutMs: 20_000,
      maxOutputBytes: 10_000,
    });
    expect(run.outputCapped).toBe(true);
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBeNull();
    expect(run.stdout.length).toBeGreaterThan(10_000);
    expect(run.stdout.toString('utf8').startsWith('zebra\nzebra\n')).toBe(true);
  });

  it('reports the exit code and stderr of a process that ends by itself', async () => {
    const run = await runRipgrep({
      fs,
      binary: '/bin/sh',
      args: ['-c', 'printf out; printf err >&2; exit 2'],
      cwd: process.cwd(),
      timeoutMs: 20_000,
    });
    expect(run).toMatchObject({
      exitCode: 2,
      stderr: 'err',
      timedOut: false,
      aborted: false,
      outputCapped: false,
    });
    expect(run.stdout.toString('utf8')).toBe('out');
  });

  it('rejects, and stops the process, when the output handler throws', async () => {
    const run = runRipgrep({
      fs,
      binary: '/bin/sh',
      args: ['-c', 'while :; do echo zebra; done'],
      cwd: process.cwd(),
      timeoutMs: 20_000,
      onStdout: () => {
        throw new Error('parser failed');
      },
    });
    await expect(run).rejects.toThrow('parser failed');
  });

  it('rejects with ENOENT when the binary does not exist where the files are', async () => {
    await expect(
      runRipgrep({ fs, binary: '/nonexistent/rg', args: [], cwd: process.cwd(), timeoutMs: 1000 }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

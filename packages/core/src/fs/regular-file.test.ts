import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { openRegularFile, readFileUpTo, readRegularFile } from './regular-file.js';
import { localFileSystem } from './local-file-system.js';

describe('openRegularFile', () => {
  test('a FIFO without a writer is "not-a-file" at once: the open never waits for a writer', async ({
    workspace,
  }) => {
    const fifo = workspace.at('pipe');
    execFileSync('mkfifo', [fifo]);
    // More FIFOs than libuv has pool threads: a blocking open would park them all and hang the process.
    for (let i = 0; i < 6; i++) expect(await openRegularFile(localFileSystem, fifo)).toBe('not-a-file');
    expect(await readRegularFile(localFileSystem, fifo)).toBe('not-a-file');
    await expect(readFileUpTo(localFileSystem, fifo, 10)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  test('a directory is "not-a-file", a missing path "missing"', async ({ workspace }) => {
    await workspace.mkdir('dir');
    expect(await openRegularFile(localFileSystem, workspace.at('dir'))).toBe('not-a-file');
    expect(await openRegularFile(localFileSystem, workspace.at('none'))).toBe('missing');
    expect(await openRegularFile(localFileSystem, workspace.at('none/below'))).toBe('missing');
  });

  // A socket cannot be opened (ENXIO on Linux): the answer is what it is, not the open's errno.
  test.runIf(process.platform !== 'win32')(
    'a socket is "not-a-file", though it cannot be opened at all',
    async ({ workspace, onTestFinished }) => {
      const socket = workspace.at('sock');
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
      expect(await openRegularFile(localFileSystem, socket)).toBe('not-a-file');
      expect(await readRegularFile(localFileSystem, socket)).toBe('not-a-file');
      await expect(readFileUpTo(localFileSystem, socket, 10)).rejects.toMatchObject({ code: 'EISDIR' });
    },
  );

  test('a regular file is read with the fstat of its descriptor', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'hello');
    const read = await readRegularFile(localFileSystem, file);
    expect(typeof read === 'string' ? read : [read.bytes.toString(), read.stats.size]).toEqual(['hello', 5]);
    const head = await readRegularFile(localFileSystem, file, 2);
    expect(typeof head === 'string' ? head : head.bytes.toString()).toBe('he');
  });
});

import { execFileSync } from 'node:child_process';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { openRegularFile, readFileUpTo, readRegularFile } from './regular-file.js';

describe('openRegularFile', () => {
  test('a FIFO without a writer is "not-a-file" at once: the open never waits for a writer', async ({
    workspace,
  }) => {
    const fifo = workspace.at('pipe');
    execFileSync('mkfifo', [fifo]);
    // More FIFOs than libuv has pool threads: a blocking open would park them all and hang the process.
    for (let i = 0; i < 6; i++) expect(await openRegularFile(fifo)).toBe('not-a-file');
    expect(await readRegularFile(fifo)).toBe('not-a-file');
    await expect(readFileUpTo(fifo, 10)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  test('a directory is "not-a-file", a missing path "missing"', async ({ workspace }) => {
    await workspace.mkdir('dir');
    expect(await openRegularFile(workspace.at('dir'))).toBe('not-a-file');
    expect(await openRegularFile(workspace.at('none'))).toBe('missing');
    expect(await openRegularFile(workspace.at('none/below'))).toBe('missing');
  });

  test('a regular file is read with the fstat of its descriptor', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'hello');
    const read = await readRegularFile(file);
    expect(typeof read === 'string' ? read : [read.bytes.toString(), read.stats.size]).toEqual(['hello', 5]);
    const head = await readRegularFile(file, 2);
    expect(typeof head === 'string' ? head : head.bytes.toString()).toBe('he');
  });
});

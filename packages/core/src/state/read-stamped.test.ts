import { promises as fs } from 'node:fs';
import { it, rewriteKeepingMtime } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { stampOf } from './file-stamp.js';
import { readStampedFile } from './read-stamped.js';
import { localFileSystem } from '../fs/local-file-system.js';

describe('readStampedFile', () => {
  it('reads the whole file with the stamp stampOf gives it', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'hello\n');
    const read = await readStampedFile(localFileSystem, file);
    if (typeof read === 'string') throw new Error(read);
    expect(read.bytes.toString()).toBe('hello\n');
    expect(read.stamp).toEqual(await stampOf(localFileSystem, file));
  });

  it('gives a same-size rewrite that keeps the mtime a stamp of its own (its hash)', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    const before = await readStampedFile(localFileSystem, file);
    await rewriteKeepingMtime(file, 'value=2\n');
    const after = await readStampedFile(localFileSystem, file);
    if (typeof before === 'string' || typeof after === 'string') throw new Error('not read');
    expect(after.stamp.size).toBe(before.stamp.size);
    expect(after.stamp.mtimeNs).toBe(before.stamp.mtimeNs);
    expect(after.stamp.hash).not.toBe(before.stamp.hash);
  });

  it('says why it read nothing', async ({ workspace }) => {
    await fs.mkdir(workspace.at('dir'));
    expect(await readStampedFile(localFileSystem, workspace.at('missing.txt'))).toBe('missing');
    expect(await readStampedFile(localFileSystem, workspace.at('dir'))).toBe('not-a-file');
  });
});

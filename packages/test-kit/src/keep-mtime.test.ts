import { promises as fs } from 'node:fs';
import { describe, expect } from 'vitest';
import { restoreMtimeNs, rewriteKeepingMtime } from './keep-mtime.js';
import { it } from './workspace-test.js';

describe('rewriteKeepingMtime', () => {
  it('changes the content in place and keeps size and mtime to the nanosecond', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'one\n');
    const before = await fs.stat(file, { bigint: true });
    await rewriteKeepingMtime(file, 'two\n');
    const after = await fs.stat(file, { bigint: true });
    expect(await fs.readFile(file, 'utf8')).toBe('two\n');
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    expect(after.ctimeNs).not.toBe(before.ctimeNs);
  });
});

describe('restoreMtimeNs', () => {
  it('sets a time a double of seconds cannot hold', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'x');
    const wanted = 1_700_000_000_123_456_789n;
    await restoreMtimeNs(file, wanted);
    expect((await fs.stat(file, { bigint: true })).mtimeNs).toBe(wanted);
  });
});

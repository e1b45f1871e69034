import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBytesUpTo } from './read-bytes.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'media-read-bytes-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('readBytesUpTo', () => {
  it('reads a file within the limit whole', async () => {
    const file = path.join(dir, 'a.bin');
    await fs.writeFile(file, Uint8Array.from([1, 2, 3, 4, 5]));
    expect([...(await readBytesUpTo(file, 5))]).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops one byte past the limit, so the caller can tell the file is too large', async () => {
    const file = path.join(dir, 'b.bin');
    await fs.writeFile(file, new Uint8Array(100).fill(7));
    const bytes = await readBytesUpTo(file, 10);
    expect(bytes.length).toBe(11);
  });

  it('reads an empty file as no bytes', async () => {
    const file = path.join(dir, 'c.bin');
    await fs.writeFile(file, '');
    expect((await readBytesUpTo(file, 10)).length).toBe(0);
  });
});

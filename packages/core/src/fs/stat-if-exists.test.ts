import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statIfExists } from './stat-if-exists.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-stat-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('statIfExists', () => {
  it('stats what exists and returns undefined for what cannot', async () => {
    const file = path.join(dir, 'a.txt');
    await fs.writeFile(file, 'abc');
    expect((await statIfExists(file))?.size).toBe(3);
    expect(await statIfExists(path.join(dir, 'missing'))).toBeUndefined();
    expect(await statIfExists(path.join(file, 'under-a-file'))).toBeUndefined();
  });

  it('throws other failures', async () => {
    await expect(statIfExists(`${dir}/${'x'.repeat(5000)}`)).rejects.toThrow(/ENAMETOOLONG/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempTree, type TempTree } from '../__fixtures__/temp-tree.js';
import { StreamingFileTimes } from './file-times.js';

let tree: TempTree;

beforeAll(async () => {
  tree = await createTempTree();
  await tree.writeAll({ 'a.txt': '', 'dir/é.txt': '' });
  await tree.touch('a.txt', 1000);
  await tree.touch('dir/é.txt', 2000);
});

afterAll(async () => {
  await tree.cleanUp();
});

describe('StreamingFileTimes', () => {
  it('reads paths split anywhere across chunks, even inside a character', () => {
    const times = new StreamingFileTimes(tree.root);
    const bytes = Buffer.from('a.txt\0dir/é.txt\0');
    const cut = bytes.indexOf(0xa9); // second byte of `é`
    times.write(bytes.subarray(0, 3));
    times.write(bytes.subarray(3, cut));
    times.write(bytes.subarray(cut));
    expect(times.timeOf('a.txt')).toBe(1_000_000);
    expect(times.timeOf('dir/é.txt')).toBe(2_000_000);
  });

  it('looks up files it was not given, and gives 0 for a missing one', () => {
    const times = new StreamingFileTimes(tree.root);
    expect(times.timeOf('a.txt')).toBe(1_000_000);
    expect(times.timeOf('gone.txt')).toBe(0);
  });
});

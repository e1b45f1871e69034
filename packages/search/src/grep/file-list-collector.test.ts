import type { TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchTree } from '../__fixtures__/search-tree.js';
import { FileListCollector } from './file-list-collector.js';
import { ResultPathFilter } from './result-path-filter.js';

let tree: TempWorkspace;

beforeAll(async () => {
  tree = await createSearchTree(
    { 'a.txt': '', 'b.txt': '', 'dir/é.txt': '', 'dir/x/y.txt': '', 'dir-x.txt': '', '.env': '' },
    { mtimes: { 'a.txt': 1000, 'b.txt': 3000, 'dir/é.txt': 2000, 'dir/x/y.txt': 500, 'dir-x.txt': 500 } },
  );
});

afterAll(async () => {
  await tree.cleanup();
});

function collector(): { files: FileListCollector; filter: ResultPathFilter } {
  const filter = new ResultPathFilter(tree.runtime(), tree.workDir);
  return { files: new FileListCollector(filter), filter };
}

describe('FileListCollector', () => {
  it('reads names split anywhere across chunks, even inside a character', async () => {
    const { files } = collector();
    const bytes = Buffer.from('a.txt\0dir/é.txt\0');
    const cut = bytes.indexOf(0xa9); // second byte of `é`
    files.write(bytes.subarray(0, 3));
    files.write(bytes.subarray(3, cut));
    files.write(bytes.subarray(cut));
    await files.settle();
    expect(files.newestFirst()).toEqual(['dir/é.txt', 'a.txt']);
    expect(files.kept).toBe(2);
  });

  it('orders newest first, ties component-wise, a missing file last; an unfinished name is left out', async () => {
    const { files } = collector();
    files.write(Buffer.from('gone.txt\0dir-x.txt\0a.txt\0dir/x/y.txt\0b.txt\0dir/é.t'));
    await files.settle();
    expect(files.newestFirst()).toEqual(['b.txt', 'a.txt', 'dir/x/y.txt', 'dir-x.txt', 'gone.txt']);
    expect(files.kept).toBe(5);
  });

  it('keeps sensitive files out, and does not count them', async () => {
    const { files } = collector();
    files.write(Buffer.from('.env\0a.txt\0'));
    await files.settle();
    expect(files.newestFirst()).toEqual(['a.txt']);
    expect(files.kept).toBe(1);
  });
});

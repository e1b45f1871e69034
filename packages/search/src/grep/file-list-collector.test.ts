import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempTree, type TempTree } from '../__fixtures__/temp-tree.js';
import { FileListCollector } from './file-list-collector.js';
import { ResultPathFilter } from './result-path-filter.js';

let tree: TempTree;

beforeAll(async () => {
  tree = await createTempTree();
  await tree.writeAll({
    'a.txt': '',
    'b.txt': '',
    'dir/é.txt': '',
    'dir/x/y.txt': '',
    'dir-x.txt': '',
    '.env': '',
  });
  await tree.touch('a.txt', 1000);
  await tree.touch('b.txt', 3000);
  await tree.touch('dir/é.txt', 2000);
  for (const tied of ['dir/x/y.txt', 'dir-x.txt']) await tree.touch(tied, 500);
});

afterAll(async () => {
  await tree.cleanUp();
});

function collector(): { files: FileListCollector; filter: ResultPathFilter } {
  const filter = new ResultPathFilter(
    createRuntime({ workDir: tree.root, approval: yoloApproval() }),
    tree.root,
  );
  return { files: new FileListCollector(filter), filter };
}

describe('FileListCollector', () => {
  it('reads names split anywhere across chunks, even inside a character', () => {
    const { files } = collector();
    const bytes = Buffer.from('a.txt\0dir/é.txt\0');
    const cut = bytes.indexOf(0xa9); // second byte of `é`
    files.write(bytes.subarray(0, 3));
    files.write(bytes.subarray(3, cut));
    files.write(bytes.subarray(cut));
    expect(files.newestFirst()).toEqual(['dir/é.txt', 'a.txt']);
    expect(files.listed).toBe(2);
  });

  it('orders newest first, ties component-wise, a missing file last; an unfinished name is left out', () => {
    const { files } = collector();
    files.write(Buffer.from('gone.txt\0dir-x.txt\0a.txt\0dir/x/y.txt\0b.txt\0dir/é.t'));
    expect(files.newestFirst()).toEqual(['b.txt', 'a.txt', 'dir/x/y.txt', 'dir-x.txt', 'gone.txt']);
    expect(files.listed).toBe(5);
  });

  it('counts sensitive files as listed but keeps them out, remembering them for the warning', () => {
    const { files, filter } = collector();
    files.write(Buffer.from('.env\0a.txt\0'));
    expect(files.newestFirst()).toEqual(['a.txt']);
    expect(files.listed).toBe(2);
    expect([...filter.sensitive]).toEqual(['.env']);
  });
});

import { promises as fs } from 'node:fs';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { FileStats } from './file-system.js';
import { localFileSystem } from './local-file-system.js';
import { lstatMany } from './lstat-many.js';
import { memoryFileSystem } from './memory/memory-file-system.js';

/** Every field of a stats object and its type tests, for comparing two. */
function fieldsOf(stats: FileStats | undefined) {
  if (stats === undefined) return undefined;
  const { size, mode, mtimeMs, mtimeNs, ctimeNs, ino, dev, nlink, uid, gid } = stats;
  const types = [
    stats.isFile(),
    stats.isDirectory(),
    stats.isSymbolicLink(),
    stats.isFIFO(),
    stats.isSocket(),
    stats.isCharacterDevice(),
    stats.isBlockDevice(),
  ];
  return { size, mode, mtimeMs, mtimeNs, ctimeNs, ino, dev, nlink, uid, gid, types };
}

describe('lstatMany', () => {
  it('gives on the local disk, for many paths, what lstat gives for each, and undefined where nothing is', async ({
    workspace,
  }) => {
    // More paths than the local disk stats on the main thread: this goes through its worker threads.
    const paths: string[] = [];
    for (let i = 0; i < 1500; i += 1) {
      await workspace.write(`d${i % 7}/f${i}.txt`, 'x'.repeat(i));
      paths.push(`d${i % 7}/f${i}.txt`);
    }
    await fs.symlink('d0/f0.txt', workspace.at('link'));
    paths.push('', 'link', 'd3', 'missing', 'd0/f0.txt/under-a-file');
    const many = await lstatMany(localFileSystem, workspace.workDir, paths);
    expect(many).toHaveLength(paths.length);
    const one = await Promise.all(
      paths.map((path) =>
        localFileSystem.lstat(path === '' ? workspace.workDir : workspace.at(path)).catch(() => undefined),
      ),
    );
    expect(many.map(fieldsOf)).toEqual(one.map(fieldsOf));
    expect(many.at(-3)!.isDirectory()).toBe(true);
    expect(many.at(-4)!.isSymbolicLink()).toBe(true);
    expect(many.at(-5)!.isDirectory()).toBe(true);
    expect(many.slice(-2)).toEqual([undefined, undefined]);
  });

  it('rejects on the local disk for a failure other than a missing path', async ({ workspace }) => {
    await fs.symlink('loop', workspace.at('loop'));
    const paths = Array.from({ length: 1200 }, (_, i) => `missing-${i}`);
    paths.push('loop/x');
    await expect(lstatMany(localFileSystem, workspace.workDir, paths)).rejects.toMatchObject({
      code: 'ELOOP',
    });
    await expect(lstatMany(localFileSystem, workspace.workDir, paths.slice(-3))).rejects.toMatchObject({
      code: 'ELOOP',
    });
  });

  it('falls back on lstat where the backend has no lstatMany', async () => {
    const memory = memoryFileSystem({ files: { '/w/a.txt': 'abc', '/w/b/c.txt': '' } });
    expect(memory.lstatMany).toBeUndefined();
    const stats = await lstatMany(memory, '/w', ['a.txt', 'b', 'none', 'a.txt/x']);
    expect(stats.map((entry) => entry?.size)).toEqual([3, expect.any(Number), undefined, undefined]);
    expect(stats[1]!.isDirectory()).toBe(true);
  });
});

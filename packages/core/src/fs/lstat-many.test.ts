import { promises as fs } from 'node:fs';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { FileStats } from './file-system.js';
import { localFileSystem } from './local-file-system.js';
import { lstatMany } from './lstat-many.js';
import { memoryFileSystem } from './memory/memory-file-system.js';
import { StatsTable, WideField } from './stats-table.js';

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

/** Every entry of a table, as objects. */
function entriesOf(table: StatsTable): Array<FileStats | undefined> {
  return Array.from({ length: table.length }, (_, at) => table.at(at));
}

describe('lstatMany', () => {
  it('gives on the local disk, for many paths, what lstat gives for each, and undefined where nothing is', async ({
    workspace,
  }) => {
    const paths: string[] = [];
    for (let i = 0; i < 1500; i += 1) {
      await workspace.write(`d${i % 7}/f${i}.txt`, 'x'.repeat(i));
      paths.push(`d${i % 7}/f${i}.txt`);
    }
    await fs.symlink('d0/f0.txt', workspace.at('link'));
    paths.push('', 'link', 'd3', 'missing', 'd0/f0.txt/under-a-file');
    const many = entriesOf(await lstatMany(localFileSystem, workspace.workDir, paths));
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
    const stats = entriesOf(await lstatMany(memory, '/w', ['a.txt', 'b', 'none', 'a.txt/x']));
    expect(stats.map((entry) => entry?.size)).toEqual([3, expect.any(Number), undefined, undefined]);
    expect(stats[1]!.isDirectory()).toBe(true);
  });
});

describe('lstatMany on the local disk', () => {
  it('lets the event loop run while it stats many paths', async ({ workspace }) => {
    // 40,000 lstat system calls take tens of milliseconds whatever the machine: more than one slice.
    const paths = Array.from({ length: 40_000 }, (_, i) => `missing-${i}`);
    let done = false;
    let ranBefore = false;
    setImmediate(() => (ranBefore = !done));
    const table = await lstatMany(localFileSystem, workspace.workDir, paths).then((result) => {
      done = true;
      return result;
    });
    expect(table.length).toBe(paths.length);
    expect(ranBefore).toBe(true);
  });
});

describe('StatsTable', () => {
  it('keeps what a backend left out absent, and compares 64-bit fields word by word', () => {
    const stats = (fields: Partial<FileStats>): FileStats =>
      ({ size: 3, mode: 0o100644, mtimeMs: 5, ...fields }) as FileStats;
    const table = StatsTable.of([
      stats({ mtimeNs: 5_000_123n, ino: 0x1_0000_0002n }),
      undefined,
      stats({ mtimeNs: -1n, ctimeNs: 7n, dev: 9n, nlink: 2, uid: 0, gid: 0 }),
    ]);
    expect(entriesOf(table).map((entry) => entry && { ...entry })).toEqual([
      { size: 3, mode: 0o100644, mtimeMs: 5, mtimeNs: 5_000_123n, ino: 0x1_0000_0002n },
      undefined,
      { size: 3, mode: 0o100644, mtimeMs: 5, mtimeNs: -1n, ctimeNs: 7n, dev: 9n, nlink: 2, uid: 0, gid: 0 },
    ]);
    expect([table.has(0), table.has(1), table.has(2)]).toEqual([true, false, true]);
    expect([table.hasWide(0, WideField.ctimeNs), table.hasWide(2, WideField.ctimeNs)]).toEqual([false, true]);
    const column = new BigInt64Array([0x1_0000_0002n, 0x2_0000_0002n, 0x1_0000_0001n, -1n]);
    const words = new Int32Array(column.buffer);
    expect([0, 1, 2].map((index) => table.sameWide(0, WideField.ino, words, index))).toEqual([
      true,
      false,
      false,
    ]);
    expect(table.sameWide(2, WideField.mtimeNs, words, 3)).toBe(true);
    // Absent is never equal, not even to 0.
    expect(table.sameWide(0, WideField.dev, new Int32Array(2), 0)).toBe(false);
    expect(table.type(0)).toBe(0o100000);
    expect(table.at(0)!.isFile()).toBe(true);
  });
});

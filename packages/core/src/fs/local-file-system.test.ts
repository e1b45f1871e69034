import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeFileSystemConformance } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';
import type { FileSystem } from './file-system.js';
import { localFileSystem, readDirectoryEntries } from './local-file-system.js';
import { memoryFileSystem } from './memory/memory-file-system.js';

// The local disk against every promise of the interface: the reference the other backends are held to.
describeFileSystemConformance('local', async () => {
  const root = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-fs-')));
  return {
    fs: localFileSystem,
    root,
    mkfifo: async (fifo) => {
      await promisify(execFile)('mkfifo', [fifo]);
    },
    cleanup: () => nodeFs.rm(root, { recursive: true, force: true }),
  };
});

describe('readDirectoryEntries', () => {
  const read = (fs: FileSystem, dir: string) =>
    new Promise<{ error: unknown; names: string[] }>((resolve) =>
      readDirectoryEntries(fs, dir, (error, entries) =>
        resolve({
          error,
          names: entries.map((entry) => `${entry.name}${entry.isDirectory() ? '/' : ''}`).sort(),
        }),
      ),
    );

  it('hands the entries with their types, or the error, to the callback: on the local disk and on any other', async () => {
    const root = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-fs-')));
    try {
      await nodeFs.mkdir(path.join(root, 'sub'));
      await nodeFs.writeFile(path.join(root, 'a.txt'), '');
      const memory = memoryFileSystem({ files: { '/w/a.txt': '', '/w/sub/b.txt': '' } });
      expect(await read(localFileSystem, root)).toEqual({ error: undefined, names: ['a.txt', 'sub/'] });
      expect(await read(memory, '/w')).toEqual({ error: undefined, names: ['a.txt', 'sub/'] });
      for (const [fs, dir] of [
        [localFileSystem, path.join(root, 'missing')],
        [memory, '/w/missing'],
      ] as const) {
        const { error, names } = await read(fs, dir);
        expect(error).toMatchObject({ code: 'ENOENT' });
        expect(names).toEqual([]);
      }
    } finally {
      await nodeFs.rm(root, { recursive: true, force: true });
    }
  });
});

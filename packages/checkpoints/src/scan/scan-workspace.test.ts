import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRuntime, type FileSystem } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { SFTP_CAPABILITIES, test, translatedFileSystem } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createCheckpoints } from '../index.js';
import { scanWorkspace } from './scan-workspace.js';

/** Sets the times of `paths` (files or directories) an hour back, so a scan takes their stamps as settled. */
async function settle(root: string, ...paths: string[]): Promise<void> {
  const past = Date.now() / 1000 - 3600;
  for (const relative of paths) await fs.utimes(path.join(root, relative), past, past);
}

/** Every file and directory under `root` (but `root`), relative, for {@link settle}. */
async function everything(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true });
  return entries.map((entry) => entry.toString());
}

/** The local disk, with the calls a scan makes counted. */
function counting(): { fs: FileSystem; calls: Record<'readdir' | 'open' | 'lstat', string[]> } {
  const calls = { readdir: [] as string[], open: [] as string[], lstat: [] as string[] };
  const fs: FileSystem = {
    ...localFileSystem,
    readdir: (directory) => {
      calls.readdir.push(directory);
      return localFileSystem.readdir(directory);
    },
    open: (file, mode) => {
      calls.open.push(file);
      return localFileSystem.open(file, mode);
    },
    lstat: (file) => {
      calls.lstat.push(file);
      return localFileSystem.lstat(file);
    },
  };
  return { fs, calls };
}

describe('a scan against the last checkpoint', () => {
  test('takes nothing in of the excluded directory, and drops the rows an earlier index had under it', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'a.txt': 'a\n', 'store/index': 'i\n', 'store/packs/p.pack': 'p\n' });
    await settle(workspace.workDir, ...(await everything(workspace.workDir)), '.');
    const request = { fs: localFileSystem, root: workspace.workDir, maxFileBytes: 1 << 20 };
    // An index written before the directory was excluded (the store was taken for the workspace's own).
    const before = await scanWorkspace({ ...request, previous: undefined });
    expect(before.index.paths).toContain('store/packs/p.pack');
    await workspace.write('store/packs/q.pack', 'q\n');
    const after = await scanWorkspace({ ...request, previous: before.index, exclude: 'store' });
    expect([...after.index.paths].sort()).toEqual(['', 'a.txt']);
    expect(after.changed).toEqual(['store', 'store/index', 'store/packs', 'store/packs/p.pack']);
  });

  test('lists no directory and reads no file when nothing changed', async ({ workspace, approval }) => {
    await workspace.writeAll({
      'a.txt': 'a\n',
      'src/b.txt': 'b\n',
      'src/deep/c.txt': 'c\n',
      '.gitignore': 'x\n',
    });
    await settle(workspace.workDir, ...(await everything(workspace.workDir)), '.');
    const { fs: counted, calls } = counting();
    const runtime = createRuntime({ workDir: workspace.workDir, approval, fs: counted });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    expect(calls.readdir).toHaveLength(3);
    calls.readdir.length = 0;
    calls.open.length = 0;
    const second = await checkpoints.create();
    expect(second.files).toEqual([]);
    expect(calls.readdir).toEqual([]);
    expect(calls.open).toEqual([]);
  });

  test('lists again only the directories that moved, and finds what was added, removed or renamed in them', async ({
    workspace,
    approval,
  }) => {
    await workspace.writeAll({
      'a.txt': 'a\n',
      'src/b.txt': 'b\n',
      'src/deep/c.txt': 'c\n',
      'other/d.txt': 'd\n',
    });
    await settle(workspace.workDir, ...(await everything(workspace.workDir)), '.');
    const { fs: counted, calls } = counting();
    const runtime = createRuntime({ workDir: workspace.workDir, approval, fs: counted });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    await fs.writeFile(workspace.at('src/deep/new.txt'), 'new\n');
    await fs.rename(workspace.at('other/d.txt'), workspace.at('other/e.txt'));
    await fs.rm(workspace.at('a.txt'));
    calls.readdir.length = 0;
    const second = await checkpoints.create();
    expect(second.files).toEqual([
      { path: 'a.txt', change: 'deleted' },
      { path: 'other/e.txt', change: 'renamed', from: 'other/d.txt' },
      { path: 'src/deep/new.txt', change: 'created' },
    ]);
    expect(calls.readdir.sort()).toEqual(
      [workspace.workDir, workspace.at('other'), workspace.at('src/deep')].sort(),
    );
  });

  test('walks a new directory whole, and forgets one that went with all below it', async ({
    workspace,
    runtime,
  }) => {
    await workspace.writeAll({ 'keep.txt': 'k\n', 'old/x/y.txt': 'y\n' });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    await fs.rm(workspace.at('old'), { recursive: true });
    await workspace.writeAll({ 'new/p/q/r.txt': 'r\n', 'new/s.txt': 's\n' });
    const second = await checkpoints.create();
    expect(second.files).toEqual([
      { path: 'new/p/q/r.txt', change: 'created' },
      { path: 'new/s.txt', change: 'created' },
      { path: 'old/x/y.txt', change: 'deleted' },
    ]);
    expect((await checkpoints.create()).files).toEqual([]);
  });

  test('never follows a directory that became a link to another one', async ({ workspace, runtime }) => {
    await workspace.writeAll({ 'src/a.txt': 'a\n', 'elsewhere/a.txt': 'a\n' });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    // The same names are found through the link, with other stamps; they are not the workspace's files any more.
    await fs.rm(workspace.at('src'), { recursive: true });
    await fs.symlink('elsewhere', workspace.at('src'));
    const second = await checkpoints.create();
    expect(second.files).toEqual([
      { path: 'src', change: 'created' },
      { path: 'src/a.txt', change: 'deleted' },
    ]);
  });

  test('lists every directory again when an ignore file changed: a file it stops ignoring deep down is found', async ({
    workspace,
    runtime,
  }) => {
    await workspace.writeAll({
      '.gitignore': '*.log\n',
      'a/b/c/trace.log': 'log\n',
      'a/b/c/code.ts': 'code\n',
    });
    await settle(workspace.workDir, ...(await everything(workspace.workDir)), '.');
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    const first = await checkpoints.create();
    expect(first.files.map((file) => file.path)).toEqual(['.gitignore', 'a/b/c/code.ts']);
    await fs.writeFile(workspace.at('.gitignore'), '*.tmp\n');
    const second = await checkpoints.create();
    expect(second.files).toEqual([
      { path: '.gitignore', change: 'modified' },
      { path: 'a/b/c/trace.log', change: 'created' },
    ]);
  });

  test('takes a new ignore file in a directory into account below it, in directories that did not move', async ({
    workspace,
    runtime,
  }) => {
    await workspace.writeAll({ 'a/b/c/trace.log': 'log\n', 'a/b/c/code.ts': 'code\n' });
    await settle(workspace.workDir, ...(await everything(workspace.workDir)), '.');
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    await fs.writeFile(workspace.at('a/.ignore'), '*.log\n');
    const second = await checkpoints.create();
    expect(second.files).toEqual([
      { path: 'a/.ignore', change: 'created' },
      { path: 'a/b/c/trace.log', change: 'deleted' },
    ]);
  });

  test('is right without the index of the last scan (damaged or missing), and makes it again', async ({
    workspace,
    runtime,
  }) => {
    await workspace.writeAll({ 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    await checkpoints.create();
    const index = path.join(store, 'index');
    const bytes = await fs.readFile(index);
    bytes[bytes.length - 10]! ^= 0xff;
    await fs.writeFile(index, bytes);
    await fs.writeFile(workspace.at('a.txt'), 'A\n');
    expect((await checkpoints.create()).files).toEqual([{ path: 'a.txt', change: 'modified' }]);
    await fs.rm(index);
    await fs.rm(workspace.at('b/c.txt'));
    expect((await checkpoints.create()).files).toEqual([{ path: 'b/c.txt', change: 'deleted' }]);
    expect((await checkpoints.create()).files).toEqual([]);
    expect((await checkpoints.rewind('1')).kind).toBe('rewound');
    expect(await fs.readFile(workspace.at('b/c.txt'), 'utf8')).toBe('c\n');
  });

  describe('what a stamp cannot show', () => {
    /** The workspace on the local disk, and as a backend with SFTP's stamps (whole seconds, no change time or inode). */
    const backends = {
      local: (root: string) => ({ fs: localFileSystem, workDir: root }),
      'SFTP-like': (root: string) => ({
        fs: translatedFileSystem(root, '/work', { capabilities: SFTP_CAPABILITIES }),
        workDir: '/work',
      }),
    };

    for (const [name, backend] of Object.entries(backends)) {
      test(`${name}: a file rewritten right after a checkpoint, its size and time kept, is read again and seen`, async ({
        workspace,
        approval,
      }) => {
        const { fs: backendFs, workDir } = backend(workspace.workDir);
        const runtime = createRuntime({ workDir, approval, fs: backendFs });
        const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
        // Stamped as the scan begins or later: within one tick of the clock, a second change leaves the time as it was.
        const file = await workspace.write('a.txt', 'one\n');
        const later = Date.now() / 1000 + 30;
        await fs.utimes(file, later, later);
        await checkpoints.create();
        const stamp = await fs.stat(file);
        await fs.writeFile(file, 'two\n');
        await fs.utimes(file, stamp.atime, stamp.mtime);
        expect((await checkpoints.create()).files).toEqual([{ path: 'a.txt', change: 'modified' }]);
      });
    }

    test('a file replaced with its size and time kept, long after it was read: seen where the change time and inode are kept, not over SFTP', async ({
      workspace,
      approval,
    }) => {
      const replaced: Record<string, unknown> = {};
      for (const [name, backend] of Object.entries(backends)) {
        const root = await fs.mkdtemp(path.join(workspace.workDir, `${name}-`));
        const { fs: backendFs, workDir } = backend(root);
        const runtime = createRuntime({ workDir, approval, fs: backendFs });
        const checkpoints = createCheckpoints(runtime, { dir: workspace.outside(`store-${name}`) });
        const file = path.join(root, 'a.txt');
        await fs.writeFile(file, 'one\n');
        await settle(root, 'a.txt', '.');
        await checkpoints.create();
        // Another file, same size, put in its place with its time (a copy that keeps times, `touch -r`).
        const stamp = await fs.stat(file);
        await fs.writeFile(`${file}.new`, 'two\n');
        await fs.utimes(`${file}.new`, stamp.atime, stamp.mtime);
        await fs.rename(`${file}.new`, file);
        await settle(root, '.');
        replaced[name] = (await checkpoints.create()).files;
      }
      expect(replaced).toEqual({ local: [{ path: 'a.txt', change: 'modified' }], 'SFTP-like': [] });
    });
  });
});

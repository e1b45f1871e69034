import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localFileSystem } from '../local-file-system.js';
import { memoryFileSystem, type MemoryFileSystem } from './memory-file-system.js';

async function write(fs: MemoryFileSystem, file: string, text: string): Promise<void> {
  const handle = await fs.create(file);
  await handle.write(Buffer.from(text), 0, Buffer.byteLength(text), 0);
  await handle.close();
}

describe('memoryFileSystem', () => {
  it('is a linux workspace named memory, with its own home, that runs no programs', () => {
    const fs = memoryFileSystem();
    expect([fs.name, fs.platform, fs.homeDir, fs.exec]).toEqual(['memory', 'linux', '/home/user', undefined]);
    expect(memoryFileSystem({ homeDir: '/home/agent' }).homeDir).toBe('/home/agent');
    expect(fs.snapshot()).toEqual({});
  });

  it('is a workspace of its own unless given an identity: two at one path never share what is kept for them', () => {
    const [first, second] = [memoryFileSystem(), memoryFileSystem()];
    expect(first.identity).toMatch(/^memory [0-9a-f-]{36}$/);
    expect(second.identity).not.toBe(first.identity);
    expect(memoryFileSystem({ identity: 'tenant 7' }).identity).toBe('tenant 7');
  });

  it('starts with the files given, text as UTF-8 or bytes, their directories made, modes as the umask leaves them', () => {
    const fs = memoryFileSystem({
      files: { '/work/src/a.ts': 'export const é = 1;\n', '/work/b.bin': new Uint8Array([0, 255, 10]) },
    });
    expect(fs.snapshot()).toEqual({
      '/work': { type: 'directory', mode: 0o755 },
      '/work/b.bin': { type: 'file', content: Buffer.from([0, 255, 10]), mode: 0o644 },
      '/work/src': { type: 'directory', mode: 0o755 },
      '/work/src/a.ts': { type: 'file', content: Buffer.from('export const é = 1;\n'), mode: 0o644 },
    });
  });

  it('refuses a seeded file by relative path, and one where a file stands in the way', () => {
    expect(() => memoryFileSystem({ files: { 'work/a.txt': 'x' } })).toThrow(
      'memoryFileSystem: files are given by absolute path; `work/a.txt` is relative.',
    );
    expect(() => memoryFileSystem({ files: { '/a': 'x', '/a/b': 'y' } })).toThrow(
      "EEXIST: file already exists, mkdir '/a'",
    );
  });

  it('snapshots a directory: links as their targets, a hard-linked file under each name, bytes as copies', async () => {
    const fs = memoryFileSystem({ files: { '/work/a.txt': 'one\n', '/elsewhere/x': 'x' } });
    await fs.symlink('a.txt', '/work/link');
    await fs.link('/work/a.txt', '/work/hard');
    const snapshot = fs.snapshot('/work');
    expect(snapshot).toEqual({
      '/work/a.txt': { type: 'file', content: Buffer.from('one\n'), mode: 0o644 },
      '/work/hard': { type: 'file', content: Buffer.from('one\n'), mode: 0o644 },
      '/work/link': { type: 'symlink', target: 'a.txt' },
    });
    const entry = snapshot['/work/a.txt'];
    if (entry?.type === 'file') entry.content.fill(0);
    expect(fs.snapshot('/work')['/work/a.txt']).toEqual({
      type: 'file',
      content: Buffer.from('one\n'),
      mode: 0o644,
    });
  });

  it('shows a dry run: what an agent changed is the difference of two snapshots, and the disk is untouched', async () => {
    const fs = memoryFileSystem({ files: { '/work/keep.txt': 'same\n', '/work/edit.txt': 'old\n' } });
    const before = fs.snapshot();
    await write(fs, '/work/.edit.tmp', 'new\n');
    await fs.rename('/work/.edit.tmp', '/work/edit.txt');
    await fs.mkdir('/work/out');
    await write(fs, '/work/out/report.md', '# done\n');
    const after = fs.snapshot();
    const changed = Object.keys({ ...before, ...after }).filter(
      (file) => JSON.stringify(before[file]) !== JSON.stringify(after[file]),
    );
    expect(changed).toEqual(['/work/edit.txt', '/work/out', '/work/out/report.md']);
  });

  it('owns what it creates as told, and trims modes by the umask given', async () => {
    const fs = memoryFileSystem({ uid: 1234, gid: 5678, umask: 0o077 });
    await write(fs, '/private', 'x');
    await fs.mkdir('/dir');
    const stats = await fs.stat('/private');
    expect([stats.uid, stats.gid, stats.mode & 0o7777]).toEqual([1234, 5678, 0o600]);
    expect((await fs.stat('/dir')).mode & 0o7777).toBe(0o700);
  });

  it('gives every change a modification time of its own, even two in a row', async () => {
    const fs = memoryFileSystem({ files: { '/a': 'x' } });
    const handle = await fs.open('/a', 'update');
    const times: bigint[] = [];
    for (let round = 0; round < 5; round++) {
      await handle.write(Buffer.from('y'), 0, 1, 0);
      times.push((await handle.stat()).mtimeNs!);
    }
    await handle.close();
    expect(new Set(times).size).toBe(5);
    expect([...times].sort((a, b) => (a < b ? -1 : 1))).toEqual(times);
  });

  it('rejects a relative path with EINVAL', async () => {
    await expect(memoryFileSystem().stat('work/a.txt')).rejects.toMatchObject({ code: 'EINVAL' });
  });

  it("words its errors as Node's own, with code, syscall and path", async () => {
    const root = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-memory-')));
    try {
      const fs = memoryFileSystem({ files: { [`${root}/file`]: 'x' } });
      await fs.mkdir(`${root}/dir`);
      await nodeFs.writeFile(`${root}/file`, 'x');
      await nodeFs.mkdir(`${root}/dir`);
      const failures: Array<(backend: typeof localFileSystem) => Promise<unknown>> = [
        (backend) => backend.stat(`${root}/missing`),
        (backend) => backend.open(`${root}/file/inside`, 'read'),
        (backend) => backend.create(`${root}/file`),
        (backend) => backend.readlink(`${root}/file`),
        (backend) => backend.rmdir(`${root}/file`),
        (backend) => backend.rename(`${root}/file`, `${root}/dir`),
      ];
      for (const failure of failures) {
        const [local, memory] = await Promise.all(
          [localFileSystem, fs].map((backend) =>
            failure(backend).then(
              () => 'resolved',
              (error: unknown) => error,
            ),
          ),
        );
        expect(memory).toBeInstanceOf(Error);
        expect(memory).toMatchObject({
          message: (local as Error).message,
          code: (local as NodeJS.ErrnoException).code,
          errno: (local as NodeJS.ErrnoException).errno,
          syscall: (local as NodeJS.ErrnoException).syscall,
          path: (local as NodeJS.ErrnoException).path,
        });
      }
    } finally {
      await nodeFs.rm(root, { recursive: true, force: true });
    }
  });
});

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  inPlaceFails,
  onSkewedClock,
  SFTP_CAPABILITIES,
  test,
  translatedFileSystem,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { cleanupStaleTempFiles, isAtomicTempName } from './temp-files.js';
import { withFileLock } from './file-lock.js';
import { localFileSystem } from '../fs/local-file-system.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../../node_modules/.bin/tsx');

const bytes = (text: string) => new TextEncoder().encode(text);

/** The kit's test, with `leftovers`: the atomic-write temp files left in a directory (the work dir by default). */
const it = test.extend(
  'leftovers',
  ({ workspace }) =>
    async (directory = workspace.workDir) =>
      (await fs.readdir(directory)).filter(isAtomicTempName),
);

describe('writeFileAtomic', () => {
  it('creates a new file and replaces an existing one', async ({ workspace, leftovers }) => {
    const file = workspace.at('a.txt');
    await writeFileAtomic(localFileSystem, file, bytes('first'));
    expect(await fs.readFile(file, 'utf8')).toBe('first');
    await writeFileAtomic(localFileSystem, file, bytes('second, longer'));
    expect(await fs.readFile(file, 'utf8')).toBe('second, longer');
    await writeFileAtomic(localFileSystem, file, new Uint8Array());
    expect((await fs.readFile(file)).length).toBe(0);
    expect(await leftovers()).toEqual([]);
  });

  it('keeps the permission bits of the target (0755, 0600)', async ({ workspace }) => {
    const script = await workspace.write('run.sh', '#!/bin/sh\n');
    await fs.chmod(script, 0o755);
    await writeFileAtomic(localFileSystem, script, bytes('#!/bin/sh\necho hi\n'));
    expect((await fs.stat(script)).mode & 0o7777).toBe(0o755);

    const secret = await workspace.write('secret', 'x');
    await fs.chmod(secret, 0o600);
    await writeFileAtomic(localFileSystem, secret, bytes('y'));
    expect((await fs.stat(secret)).mode & 0o7777).toBe(0o600);
  });

  it('writes through a chain of symlinks and leaves the links as links', async ({ workspace }) => {
    const real = await workspace.write('real.txt', 'old');
    await workspace.symlink('link1', 'real.txt');
    await workspace.symlink('link2', workspace.at('link1'));
    await writeFileAtomic(localFileSystem, workspace.at('link2'), bytes('new'));
    expect(await fs.readFile(real, 'utf8')).toBe('new');
    expect((await fs.lstat(workspace.at('link1'))).isSymbolicLink()).toBe(true);
    expect((await fs.lstat(workspace.at('link2'))).isSymbolicLink()).toBe(true);
    expect(await fs.readlink(workspace.at('link2'))).toBe(workspace.at('link1'));
  });

  it('creates the target of a dangling symlink', async ({ workspace }) => {
    await workspace.mkdir('sub');
    await workspace.symlink('dangling', 'sub/missing.txt');
    await writeFileAtomic(localFileSystem, workspace.at('dangling'), bytes('made'));
    expect(await fs.readFile(path.join(workspace.workDir, 'sub', 'missing.txt'), 'utf8')).toBe('made');
    expect((await fs.lstat(workspace.at('dangling'))).isSymbolicLink()).toBe(true);
  });

  it('updates a hard-linked file in place so the links stay shared', async ({ workspace }) => {
    const first = workspace.at('first.txt');
    const second = workspace.at('second.txt');
    await fs.writeFile(first, 'a much longer original content');
    await fs.link(first, second);
    const inode = (await fs.stat(first)).ino;
    await writeFileAtomic(localFileSystem, second, bytes('short'));
    expect(await fs.readFile(first, 'utf8')).toBe('short');
    expect((await fs.stat(first)).ino).toBe(inode);
    expect((await fs.stat(second)).nlink).toBe(2);
  });

  it('refuses a directory and leaves it alone', async ({ workspace, leftovers }) => {
    await workspace.mkdir('folder');
    await expect(writeFileAtomic(localFileSystem, workspace.at('folder'), bytes('x'))).rejects.toMatchObject({
      code: 'EISDIR',
    });
    expect((await fs.stat(workspace.at('folder'))).isDirectory()).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it('handles names too long to prefix', async ({ workspace }) => {
    const name = `${'é'.repeat(120)}.txt`; // 244 bytes: a plain prefix would pass the 255-byte limit
    await writeFileAtomic(localFileSystem, workspace.at(name), bytes('long'));
    expect(await fs.readFile(workspace.at(name), 'utf8')).toBe('long');
  });

  it('does nothing when already aborted', async ({ workspace, leftovers }) => {
    const file = await workspace.write('a.txt', 'keep');
    const controller = new AbortController();
    controller.abort();
    await expect(
      writeFileAtomic(localFileSystem, file, bytes('lost'), { signal: controller.signal }),
    ).rejects.toThrow();
    expect(await fs.readFile(file, 'utf8')).toBe('keep');
    expect(await leftovers()).toEqual([]);
  });

  // `ulimit -f 16`: files may not grow past 16 KiB in the child, so a bigger write fails with EFBIG, as on a full disk.
  // The child's script is written next to the target.
  async function writeUnderSizeLimit(file: string, size: number): Promise<string> {
    const script = path.join(path.dirname(file), 'fail.mts');
    const moduleUrl = new URL('./atomic-write.ts', import.meta.url).href;
    const localUrl = new URL('../fs/local-file-system.ts', import.meta.url).href;
    await fs.writeFile(
      script,
      `import { writeFileAtomic } from ${JSON.stringify(moduleUrl)};
import { localFileSystem } from ${JSON.stringify(localUrl)};
try { await writeFileAtomic(localFileSystem, ${JSON.stringify(file)}, new Uint8Array(${size}).fill(65)); console.log('written'); }
catch (error) { console.log(error.code); }\n`,
    );
    const { stdout } = await run('bash', ['-c', `ulimit -f 16 && exec "$0" "$1"`, tsx, script]);
    await fs.rm(script);
    return stdout.trim();
  }

  it('leaves the target untouched and no temp file when the write fails (file size limit)', async ({
    workspace,
    leftovers,
  }) => {
    const file = workspace.at('target.txt');
    const original = 'original content\n'.repeat(100);
    await fs.writeFile(file, original);
    expect(await writeUnderSizeLimit(file, 256 * 1024)).toBe('EFBIG');
    expect(await fs.readFile(file, 'utf8')).toBe(original);
    expect(await leftovers()).toEqual([]);
  });

  it('leaves a hard-linked target untouched when growing it fails', async ({ workspace }) => {
    const file = workspace.at('shared.txt');
    const original = 'shared content\n'.repeat(100);
    await fs.writeFile(file, original);
    await fs.link(file, workspace.at('other-name.txt'));
    expect(await writeUnderSizeLimit(file, 256 * 1024)).toBe('EFBIG');
    expect(await fs.readFile(file, 'utf8')).toBe(original);
    expect(await fs.readFile(workspace.at('other-name.txt'), 'utf8')).toBe(original);
  });
});

describe('writeFileAtomic: a rewrite in place that fails part way', () => {
  const old = 'line one\nline two\nline three\n';
  const failures = [
    ['the overwrite after a growth fails', 'write', 2, 'line one\nand a much longer second line\n'],
    ['the cut of a shrink fails', 'truncate', 1, 'x\n'],
    ['the flush fails', 'sync', 1, 'new\n'],
  ] as const;

  for (const [when, operation, failing, content] of failures) {
    it(`puts the old bytes back when ${when}, and throws that error`, async ({ workspace, leftovers }) => {
      const file = workspace.at('shared.txt');
      await fs.writeFile(file, old);
      await fs.link(file, workspace.at('other-name.txt'));
      const failingFs = inPlaceFails(localFileSystem, file, operation, (call) => call === failing);
      const syscall = { write: 'write', truncate: 'ftruncate', sync: 'fsync' }[operation];
      await expect(
        writeFileAtomic(failingFs, file, bytes(content), { previous: bytes(old) }),
      ).rejects.toMatchObject({ message: `EIO: i/o error, ${syscall} '${file}'`, code: 'EIO' });
      expect(await fs.readFile(workspace.at('other-name.txt'), 'utf8')).toBe(old);
      expect((await fs.stat(file)).nlink).toBe(2);
      expect(await leftovers()).toEqual([]);
    });
  }

  it('says the file may hold part of its new content when writing the old bytes back fails too', async ({
    workspace,
  }) => {
    const file = workspace.at('shared.txt');
    await fs.writeFile(file, old);
    await fs.link(file, workspace.at('other-name.txt'));
    // Every write after the growth fails, as on a connection gone.
    const failingFs = inPlaceFails(localFileSystem, file, 'write', (call) => call >= 2);
    const failed = writeFileAtomic(failingFs, file, bytes(`${old}more\n`), { previous: bytes(old) });
    await expect(failed).rejects.toMatchObject({
      message: `EIO: i/o error, write '${file}'; '${file}' could not be restored and may hold part of its new content`,
      code: 'EIO',
    });
  });
});

describe('writeFileAtomic on another file system', () => {
  it('does every step through it: one lstat, exclusive temp file, flush, rename, directory flush', async ({
    workspace,
    leftovers,
  }) => {
    await workspace.write('a.txt', 'old');
    const files = translatedFileSystem(workspace.root, '/virtual');
    await writeFileAtomic(files, '/virtual/work/a.txt', bytes('new'));
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('new');
    expect(await leftovers()).toEqual([]);
    const steps = files.operations.map((operation) =>
      operation.replace(/kimi-tmp-[0-9a-f]{12}/g, 'kimi-tmp-X'),
    );
    expect(steps).toEqual([
      // Not a link: the lstat gave what a stat would (the mode and owner the new file keeps).
      'lstat /virtual/work/a.txt',
      'create /virtual/work/.a.txt.kimi-tmp-X',
      'rename /virtual/work/.a.txt.kimi-tmp-X /virtual/work/a.txt',
      'syncDirectory /virtual/work',
    ]);
  });

  it('refuses a backend whose rename cannot replace a file atomically, and writes nothing', async ({
    workspace,
    leftovers,
  }) => {
    await workspace.write('a.txt', 'old');
    const files = translatedFileSystem(workspace.root, '/virtual', {
      capabilities: { atomicReplace: false },
    });
    await expect(writeFileAtomic(files, '/virtual/work/a.txt', bytes('new'))).rejects.toMatchObject({
      code: 'ENOSYS',
      message:
        'ENOSYS: the translated file system cannot replace a file atomically, and files are never written in place',
    });
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('old');
    expect(await leftovers()).toEqual([]);
    expect(files.operations).toEqual([]);
  });

  it('replaces a hard-linked file through a temp file where link counts are unknown', async ({
    workspace,
  }) => {
    const first = await workspace.write('first.txt', 'shared content');
    await fs.link(first, workspace.at('second.txt'));
    const files = translatedFileSystem(workspace.root, '/virtual', { capabilities: SFTP_CAPABILITIES });
    await writeFileAtomic(files, '/virtual/work/first.txt', bytes('new'));
    expect(await fs.readFile(first, 'utf8')).toBe('new');
    // Never written in place: the other name keeps the old file.
    expect(await fs.readFile(workspace.at('second.txt'), 'utf8')).toBe('shared content');
    expect(files.operations.filter((operation) => operation.startsWith('open '))).toEqual([]);
  });
});

describe('cleanupStaleTempFiles', () => {
  it('removes old temp files only', async ({ workspace }) => {
    const stale = workspace.at('.a.txt.kimi-tmp-0123456789ab');
    const fresh = workspace.at('.b.txt.kimi-tmp-ba9876543210');
    await fs.writeFile(stale, 'x');
    await fs.writeFile(fresh, 'y');
    await workspace.write('a.txt', 'z');
    const old = new Date(Date.now() - 10 * 60_000);
    await fs.utimes(stale, old, old);
    expect(await cleanupStaleTempFiles(localFileSystem, workspace.workDir)).toEqual([stale]);
    expect((await fs.readdir(workspace.workDir)).sort()).toEqual(['.b.txt.kimi-tmp-ba9876543210', 'a.txt']);
    // A fractional mtime in the same millisecond as the cleanup (a flaky CI run found it), or a little ahead of
    // Date.now: olderThanMs 0 still means any age.
    const ahead = new Date(Date.now() + 1_000);
    await fs.utimes(fresh, ahead, ahead);
    expect(await cleanupStaleTempFiles(localFileSystem, workspace.workDir, { olderThanMs: 0 })).toEqual([
      fresh,
    ]);
    expect(await cleanupStaleTempFiles(localFileSystem, workspace.at('missing'))).toEqual([]);
  });

  it('removes an old grave a removal cut off left, with the file it took, and keeps a fresh one and one holding anything else', async ({
    workspace,
  }) => {
    const grave = async (name: string, minutesAgo: number, held: string) => {
      const dir = workspace.at(name);
      await fs.mkdir(dir);
      await fs.writeFile(path.join(dir, held), 'x');
      const at = new Date(Date.now() - minutesAgo * 60_000);
      await fs.utimes(dir, at, at);
      return dir;
    };
    const stale = await grave('.d.txt.kimi-tmp-0123456789ab', 10, 'removed');
    await grave('.e.txt.kimi-tmp-ba9876543210', 0, 'removed');
    await grave('.f.txt.kimi-tmp-fedcba987654', 10, 'notes.txt');
    expect(await cleanupStaleTempFiles(localFileSystem, workspace.workDir)).toEqual([stale]);
    expect((await fs.readdir(workspace.workDir)).sort()).toEqual([
      '.e.txt.kimi-tmp-ba9876543210',
      '.f.txt.kimi-tmp-fedcba987654',
    ]);
  });

  // A remote host's clock may be off from this machine's by any amount: ages are taken on the clock that stamps the
  // files, and a live writer's lock is refreshed on that clock too.
  for (const [direction, skewMs] of [
    ['behind', -3_600_000],
    ['ahead', 3_600_000],
  ] as const) {
    it(`on a host whose clock is an hour ${direction}: a fresh temp file and a live lock stay, an old temp file goes`, async ({
      workspace,
    }) => {
      const host = onSkewedClock(localFileSystem, skewMs);
      const file = await workspace.write('a.txt', 'a');
      const fresh = workspace.at('.b.txt.kimi-tmp-ba9876543210');
      const old = workspace.at('.c.txt.kimi-tmp-0123456789ab');
      await fs.writeFile(fresh, 'fresh');
      await fs.writeFile(old, 'old');
      const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
      await fs.utimes(old, tenMinutesAgo, tenMinutesAgo);
      // Held past two refreshes (every 100 ms), then cleaned up under the held lock.
      const removed = await withFileLock(
        host,
        file,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 250));
          return cleanupStaleTempFiles(host, workspace.workDir);
        },
        { staleMs: 300, timeoutMs: 1_000 },
      );
      expect(removed).toEqual([old]);
      expect((await fs.readdir(workspace.workDir)).sort()).toEqual(['.b.txt.kimi-tmp-ba9876543210', 'a.txt']);
    });
  }

  it('recognises its own temp names', () => {
    expect(isAtomicTempName('.notes.md.kimi-tmp-00ff00ff00ff')).toBe(true);
    expect(isAtomicTempName('notes.md.kimi-tmp-00ff00ff00ff')).toBe(false);
    expect(isAtomicTempName('.notes.md.kimi-tmp-xyz')).toBe(false);
  });
});

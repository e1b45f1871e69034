import { promises as fs } from 'node:fs';
import path from 'node:path';
import { it, translatedFileSystem, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { withFileLock } from './file-lock.js';
import { isLockFileName, lockFilePath } from './lock-file-name.js';
import { LockSightings } from './lock-sightings.js';
import { cleanupStaleTempFiles } from './temp-files.js';
import { localFileSystem } from '../fs/local-file-system.js';
import { errnoError } from '../fs/errno.js';
import type { FileSystem } from '../fs/file-system.js';

/** The local disk, where a lock file is created but its content refused, as a full disk does. */
const lockContentRefused: FileSystem = {
  ...localFileSystem,
  create: async (filePath, mode) => {
    const file = await localFileSystem.create(filePath, mode);
    if (!isLockFileName(path.basename(filePath))) return file;
    return {
      read: (...args) => file.read(...args),
      write: () => Promise.reject(errnoError('ENOSPC', 'no space left on device, write')),
      stat: () => file.stat(),
      truncate: (length) => file.truncate(length),
      sync: () => file.sync(),
      chmod: (mode) => file.chmod(mode),
      chown: (uid, gid) => file.chown(uid, gid),
      close: () => file.close(),
    };
  },
};

describe('withFileLock', () => {
  it('lets one holder in at a time and removes the lock afterwards', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const events: string[] = [];
    const hold = (name: string) =>
      withFileLock(localFileSystem, file, async () => {
        events.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push(`${name} out`);
      });
    await Promise.all([hold('one'), hold('two'), hold('three')]);
    for (let index = 0; index < events.length; index += 2) {
      expect(events[index]?.endsWith(' in')).toBe(true);
      expect(events[index + 1]).toBe(events[index]?.replace(' in', ' out'));
    }
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('releases the lock when the task throws', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    await expect(
      withFileLock(localFileSystem, file, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('breaks a lock whose holder is dead', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    await fs.writeFile(lockFilePath(file), '2147483646\n');
    expect(await withFileLock(localFileSystem, file, async () => 'ran')).toBe('ran');
  });

  it('breaking a lock removes the grave its holder’s release over SSH renames it into, still empty, before taking it', async ({
    workspace,
  }) => {
    // That release may wait in a stopped server, to rename whatever lock is there by then into its grave.
    const file = workspace.at('a.txt');
    await fs.writeFile(lockFilePath(file), '2147483646\n0123456789abcdef0123456789abcdef\n');
    await fs.mkdir(workspace.at('..a.txt.kimi-lock.kimi-tmp-0123456789ab'));
    expect(await withFileLock(localFileSystem, file, async () => 'ran')).toBe('ran');
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('breaks a lock older than staleMs even if its holder lives', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    await fs.writeFile(lock, `${process.pid}\n`);
    const old = new Date(Date.now() - 120_000);
    await fs.utimes(lock, old, old);
    expect(await withFileLock(localFileSystem, file, async () => 'ran', { staleMs: 60_000 })).toBe('ran');
  });

  it('waits for a live holder and gives up after the timeout, leaving its lock alone', async ({
    workspace,
  }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    await fs.writeFile(lock, `${process.pid}\n`);
    await expect(withFileLock(localFileSystem, file, async () => 'ran', { timeoutMs: 50 })).rejects.toThrow(
      `${file} is locked by another writer`,
    );
    expect(await fs.readFile(lock, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('writes its pid and a random token, and refreshes the lock while it holds it', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    const seen = await withFileLock(
      localFileSystem,
      file,
      async () => {
        const content = await fs.readFile(lock, 'utf8');
        const createdAt = (await fs.stat(lock)).mtimeMs;
        const longAgo = new Date(Date.now() - 60_000);
        await fs.utimes(lock, longAgo, longAgo);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { content, createdAt, refreshedAt: (await fs.stat(lock)).mtimeMs };
      },
      { staleMs: 150 },
    );
    expect(seen.content).toMatch(new RegExp(`^${process.pid}\\n[0-9a-f]{32}\\n$`));
    expect(seen.refreshedAt).toBeGreaterThanOrEqual(seen.createdAt);
  });

  it('leaves a lock that is no longer its own when it finishes (broken as stale and taken by another)', async ({
    workspace,
  }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    const other = `${process.pid}\nanother-writer-token\n`;
    await withFileLock(localFileSystem, file, async () => {
      await fs.unlink(lock);
      await fs.writeFile(lock, other);
    });
    expect(await fs.readFile(lock, 'utf8')).toBe(other);
  });

  it('does not break a young lock that its creator has not filled in yet', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    await fs.writeFile(lock, '');
    await expect(withFileLock(localFileSystem, file, async () => 'ran', { timeoutMs: 50 })).rejects.toThrow(
      'is locked by another writer',
    );
    expect(await fs.readFile(lock, 'utf8')).toBe('');
  });

  it('a lock whose content is refused fails the call before its task, and is removed', async ({
    workspace,
  }) => {
    const ran: string[] = [];
    const call = withFileLock(lockContentRefused, workspace.at('a.txt'), async () => ran.push('task'));
    await expect(call).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(ran).toEqual([]);
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('a task that reads until verify() starts while the lock is filled: verify() waits for its content, or throws its failure', async ({
    workspace,
  }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    const seen: string[] = [];
    const task = async (held: { verify(): Promise<void> }) => {
      seen.push('task');
      await held.verify();
      seen.push(await fs.readFile(lock, 'utf8'));
      return 'written';
    };
    expect(await withFileLock(localFileSystem, file, task, { readsBeforeVerify: true })).toBe('written');
    expect(seen).toEqual(['task', expect.stringMatching(/^\d+\n[0-9a-f]{32}\n$/)]);
    seen.length = 0;
    const refused = withFileLock(lockContentRefused, file, task, { readsBeforeVerify: true });
    await expect(refused).rejects.toMatchObject({ code: 'ENOSPC' });
    // The task ran up to its verify(), which threw: it never got to write.
    expect(seen).toEqual(['task']);
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
    // A task that ends without verify() ends the call with that failure too.
    await expect(
      withFileLock(lockContentRefused, file, async () => 'refused', { readsBeforeVerify: true }),
    ).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('names lock files so a cleanup recognises them', async ({ workspace }) => {
    const file = workspace.at('notes.md');
    expect(path.basename(lockFilePath(file))).toBe('.notes.md.kimi-lock');
    expect(isLockFileName('.notes.md.kimi-lock')).toBe(true);
    expect(isLockFileName('notes.md')).toBe(false);
    await fs.writeFile(lockFilePath(file), '2147483646\n');
    expect(await cleanupStaleTempFiles(localFileSystem, workspace.workDir, { olderThanMs: 0 })).toEqual([
      lockFilePath(file),
    ]);
  });
});

describe('a lock whose release failed', () => {
  /**
   * The local disk, with its connection dropping (as a remote host's does) on the first `failures` lock removals (an
   * unlink of the lock, or the rename into its grave that a removal over SSH starts with), none of them made.
   */
  const removalsDropped = (failures: number, inOrder: boolean): FileSystem => ({
    ...localFileSystem,
    capabilities: { ...localFileSystem.capabilities, localProcesses: false, requestsInOrder: inOrder },
    unlink: (filePath) =>
      isLockFileName(path.basename(filePath)) && failures-- > 0
        ? Promise.reject(errnoError('ECONNRESET', 'connection lost, unlink'))
        : localFileSystem.unlink(filePath),
    rename: (from, to) =>
      isLockFileName(path.basename(from)) && failures-- > 0
        ? Promise.reject(errnoError('ECONNRESET', 'connection lost, rename'))
        : localFileSystem.rename(from, to),
  });

  for (const inOrder of [false, true]) {
    it(`is removed by the runtime's next lock of the file, not waited out as stale (requests in order: ${inOrder})`, async ({
      workspace,
    }) => {
      const file = workspace.at('a.txt');
      const files = removalsDropped(inOrder ? 1 : 2, inOrder);
      const options = { sightings: new LockSightings(), timeoutMs: 100 };
      // The task's result stands: the release is the lock's business, never the caller's failure.
      expect(await withFileLock(files, file, async () => 'first', options)).toBe('first');
      // The removal sent without waiting has failed once the next request is answered.
      await fs.stat(file).catch(() => undefined);
      expect(await fs.readFile(lockFilePath(file), 'utf8')).toMatch(
        new RegExp(`^${process.pid}\n[0-9a-f]{32}\n$`),
      );
      expect(await withFileLock(files, file, async () => 'second', options)).toBe('second');
      await fs.stat(file).catch(() => undefined);
      await expect(fs.stat(lockFilePath(file))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  }

  it("is removed by the runtime's next lock of any file, once the connection is back", async ({
    workspace,
  }) => {
    const [first, second] = [workspace.at('a.txt'), workspace.at('b.txt')];
    const options = { sightings: new LockSightings(), timeoutMs: 100 };
    expect(await withFileLock(removalsDropped(2, false), first, async () => 'first', options)).toBe('first');
    expect(await fs.readFile(lockFilePath(first), 'utf8')).toMatch(
      new RegExp(`^${process.pid}\n[0-9a-f]{32}\n$`),
    );
    expect(await withFileLock(localFileSystem, second, async () => 'second', options)).toBe('second');
    await expect(fs.stat(lockFilePath(first))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.stat(lockFilePath(second))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("leaves no emptied grave whose own removal a drop cut off: the runtime's next lock of any file removes it", async ({
    workspace,
  }) => {
    const [first, second] = [workspace.at('a.txt'), workspace.at('b.txt')];
    let cut = 1;
    // Requests in order, as over SSH (each change made once the one sent before it is): the lock goes through its
    // grave, and the grave's `rmdir`, sent after the removal of the lock in it, is lost once.
    let queue = Promise.resolve();
    const inOrder = <T>(change: () => Promise<T>): Promise<T> => {
      const made = queue.then(change);
      queue = made.then(
        () => undefined,
        () => undefined,
      );
      return made;
    };
    const files: FileSystem = {
      ...localFileSystem,
      capabilities: { ...localFileSystem.capabilities, localProcesses: false, requestsInOrder: true },
      mkdir: (directory, options) => inOrder(() => localFileSystem.mkdir(directory, options)),
      rename: (from, to) => inOrder(() => localFileSystem.rename(from, to)),
      unlink: (filePath) => inOrder(() => localFileSystem.unlink(filePath)),
      rmdir: (directory) =>
        inOrder(() =>
          cut-- > 0
            ? Promise.reject(errnoError('ECONNRESET', 'connection lost, rmdir'))
            : localFileSystem.rmdir(directory),
        ),
    };
    const options = { sightings: new LockSightings(), timeoutMs: 100 };
    expect(await withFileLock(files, first, async () => 'first', options)).toBe('first');
    // Sent without waiting: over once its release is.
    await options.sightings.released(lockFilePath(first));
    expect(await fs.readdir(workspace.workDir)).toEqual([
      expect.stringMatching(/^\.\.a\.txt\.kimi-lock\.kimi-tmp-[0-9a-f]{12}$/),
    ]);
    expect(await withFileLock(files, second, async () => 'second', options)).toBe('second');
    await options.sightings.released(lockFilePath(first));
    await options.sightings.released(lockFilePath(second));
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('is left alone when another writer holds it by then', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const lock = lockFilePath(file);
    const options = { sightings: new LockSightings(), timeoutMs: 100 };
    await withFileLock(removalsDropped(2, false), file, async () => 'first', options);
    // Broken as stale and taken by another writer meanwhile.
    await fs.writeFile(lock, `${process.pid}\nanother-writer-token\n`);
    await expect(withFileLock(localFileSystem, file, async () => 'second', options)).rejects.toThrow(
      'is locked by another writer',
    );
    expect(await fs.readFile(lock, 'utf8')).toBe(`${process.pid}\nanother-writer-token\n`);
  });
});

describe('withFileLock on another host (no process ids of this host, a clock of its own)', () => {
  const remote = (workspace: TempWorkspace) =>
    translatedFileSystem(workspace.root, '/virtual', { capabilities: { localProcesses: false } });

  it('breaks nothing on an old modification time or a process id alone: both belong to another host', async ({
    workspace,
  }) => {
    const lock = lockFilePath(workspace.at('a.txt'));
    await fs.writeFile(lock, '2147483646\nremote-token\n');
    const old = new Date(Date.now() - 7_200_000);
    await fs.utimes(lock, old, old);
    await expect(
      withFileLock(remote(workspace), '/virtual/work/a.txt', async () => 'ran', { timeoutMs: 100 }),
    ).rejects.toThrow('/virtual/work/a.txt is locked by another writer');
    expect(await fs.readFile(lock, 'utf8')).toBe('2147483646\nremote-token\n');
  });

  it('breaks a lock that stays unchanged for staleMs on this clock, whatever time it carries', async ({
    workspace,
  }) => {
    const lock = lockFilePath(workspace.at('a.txt'));
    await fs.writeFile(lock, `${process.pid}\nremote-token\n`);
    const ahead = new Date(Date.now() + 3_600_000);
    await fs.utimes(lock, ahead, ahead);
    const ran = await withFileLock(remote(workspace), '/virtual/work/a.txt', async () => 'ran', {
      staleMs: 200,
      timeoutMs: 10_000,
    });
    expect(ran).toBe('ran');
    await expect(fs.stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('counts from the first sighting, across calls that share their sightings', async ({ workspace }) => {
    const lock = lockFilePath(workspace.at('a.txt'));
    await fs.writeFile(lock, `${process.pid}\nremote-token\n`);
    const files = remote(workspace);
    const sightings = new LockSightings();
    const options = { staleMs: 300, timeoutMs: 50, sightings };
    await expect(withFileLock(files, '/virtual/work/a.txt', async () => 'ran', options)).rejects.toThrow(
      'is locked by another writer',
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await withFileLock(files, '/virtual/work/a.txt', async () => 'ran', options)).toBe('ran');
  });
});

import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRuntime, yoloApproval, type Approval, type ToolRuntime } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import { cleanupStaleTempFiles, withFileLock } from '@kimi-tools/core/toolkit';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import {
  createTempWorkspace,
  forwardingFileSystem,
  onSkewedClock,
  rewriteKeepingMtime,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import { slowLink } from './__fixtures__/slow-link.js';
import type { SshFileSystemOptions } from './options.js';
import type { SshFileSystem } from './ssh-file-system.js';

// The tools on a remote workspace when the host, the link or another client works against them: each case ends with
// a clear error or a whole change, and nothing lost (issue 30's faults over SSH; a connection killed midway is in
// connection-drop.test.ts).
const run = promisify(execFile);
const ssh = useSshServer();
const EDITED = 'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).';
let tree: TempWorkspace;
beforeEach(async () => {
  tree = await createTempWorkspace();
});
afterEach(() => tree.cleanup());

/** A runtime on a backend over the test server, rooted at `root`; the connection is closed after the file. */
async function remoteRuntime(
  root = tree.workDir,
  options: { outside?: 'allow' | 'deny'; approval?: Approval; ssh?: Partial<SshFileSystemOptions> } = {},
): Promise<{ runtime: ToolRuntime; fs: SshFileSystem }> {
  const fs = await ssh.connect(root, options.ssh);
  const runtime = createRuntime({
    workDir: fs.root,
    approval: options.approval ?? yoloApproval(),
    fs,
    ...(options.outside ? { outside: options.outside } : {}),
  });
  return { runtime, fs };
}

/**
 * The names in `dir`, once each of `connections` answered what it was sent before (a lock's removal is sent, not
 * waited for: a stat asked after it is answered after it).
 */
async function settledNames(dir: string, ...connections: FileSystem[]): Promise<string[]> {
  for (const connection of connections) await connection.stat(dir);
  return (await nodeFs.readdir(dir)).sort();
}

/** Reads `file` through ReadFile, as a session does before it edits. */
async function readFirst(runtime: ToolRuntime, file: string): Promise<void> {
  const result = await new ReadFile(runtime, {}).call({ path: file });
  expect(result.isError).toBe(false);
}

describe('the remote host', () => {
  test('a full disk: an edit and a new file fail with ENOSPC, and nothing is changed or left behind', async () => {
    const mountPoint = await tree.mkdir('small');
    await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
    try {
      const content = `${'x'.repeat(600_000)}\nMARKER\n`;
      await nodeFs.writeFile(path.join(mountPoint, 'big.txt'), content);
      const { runtime, fs } = await remoteRuntime(mountPoint);
      await readFirst(runtime, 'big.txt');
      const edit = await new StrReplaceFile(runtime, {}).call({
        path: 'big.txt',
        edit: { old: 'MARKER', new: 'CHANGED' },
      });
      expect(edit.brief).toBe('Failed to edit file');
      expect(edit.message).toMatch(
        /^Failed to edit\. Error: ENOSPC: no space left on device, write '[^']*\/small\/\.big\.txt\.kimi-tmp-[0-9a-f]{12}'$/,
      );
      const write = await new WriteFile(runtime, {}).call({ path: 'new.txt', content: 'y'.repeat(700_000) });
      expect(write.brief).toBe('Failed to write file');
      expect(write.message).toMatch(
        /^Failed to write to new\.txt\. Error: ENOSPC: no space left on device, write '[^']*\/small\/\.new\.txt\.kimi-tmp-[0-9a-f]{12}'$/,
      );
      expect(await nodeFs.readFile(path.join(mountPoint, 'big.txt'), 'utf8')).toBe(content);
      expect(await settledNames(mountPoint, fs)).toEqual(['big.txt']);
      await fs.close();
    } finally {
      await run('umount', [mountPoint]);
    }
  });

  test('a rename onto another file system is EXDEV, as rename(2) says, and changes nothing', async () => {
    const mountPoint = await tree.mkdir('other');
    await run('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint]);
    try {
      const file = await tree.write('a.txt', 'a\n');
      const { fs } = await remoteRuntime();
      const target = path.join(mountPoint, 'a.txt');
      await expect(fs.rename(file, target)).rejects.toMatchObject({
        code: 'EXDEV',
        message: `EXDEV: cross-device link not permitted, rename '${file}' -> '${target}'`,
      });
      expect(await nodeFs.readFile(file, 'utf8')).toBe('a\n');
      expect(await nodeFs.readdir(mountPoint)).toEqual([]);
      await fs.close();
    } finally {
      await run('umount', [mountPoint]);
    }
  });

  test('a link out of the root is refused for reading, editing and writing, and nothing outside changes', async () => {
    await nodeFs.writeFile(tree.outside('secret.txt'), 'secret\n');
    await tree.symlink('escape', tree.outside('.'));
    await tree.symlink('leak.txt', tree.outside('secret.txt'));
    for (const outside of ['allow', 'deny'] as const) {
      const { runtime } = await remoteRuntime(tree.workDir, { outside });
      for (const file of ['escape/secret.txt', 'leak.txt']) {
        const refusal =
          outside === 'deny'
            ? `\`${file}\` is outside the workspace.`
            : `\`${file}\` is not an absolute path. You must provide an absolute path to VERB a file outside the working directory.`;
        const calls = {
          read: new ReadFile(runtime, {}).call({ path: file }),
          edit: new StrReplaceFile(runtime, {}).call({ path: file, edit: { old: 'secret', new: 'leaked' } }),
          write: new WriteFile(runtime, {}).call({ path: file, content: 'leaked\n' }),
        };
        for (const [verb, call] of Object.entries(calls)) {
          expect([outside, file, verb, (await call).message]).toEqual([
            outside,
            file,
            verb,
            refusal.replace('VERB', verb),
          ]);
        }
      }
    }
    expect(await nodeFs.readFile(tree.outside('secret.txt'), 'utf8')).toBe('secret\n');
  });

  test('a directory swapped for a link out of the root while the edit waits for approval: refused', async () => {
    await nodeFs.mkdir(tree.outside('elsewhere'));
    await nodeFs.writeFile(tree.outside('elsewhere/a.txt'), 'value=1\n');
    await tree.write('dir/a.txt', 'value=1\n');
    const swapping: Approval = {
      request: async () => {
        // Another process on the host, while the user looks at the diff.
        await nodeFs.rm(tree.at('dir'), { recursive: true });
        await nodeFs.symlink(tree.outside('elsewhere'), tree.at('dir'));
        return { kind: 'approve' };
      },
    };
    const { runtime } = await remoteRuntime(tree.workDir, { approval: swapping });
    await readFirst(runtime, 'dir/a.txt');
    const result = await new StrReplaceFile(runtime, {}).call({
      path: 'dir/a.txt',
      edit: { old: 'value', new: 'name' },
    });
    expect(result.brief).toBe('File modified');
    expect(await nodeFs.readFile(tree.outside('elsewhere/a.txt'), 'utf8')).toBe('value=1\n');
    expect(await nodeFs.readdir(tree.outside('elsewhere'))).toEqual(['a.txt']);
  });

  test('a directory swapped for a link out of the root under the lock, after its check, while the file is read again: refused', async () => {
    const file = await tree.write('dir/a.txt', 'value=1\n');
    const elsewhere = tree.outside('elsewhere');
    const base = await ssh.connect(tree.workDir);
    let locked = false;
    let swapped = false;
    const swapping: FileSystem = {
      ...forwardingFileSystem(base),
      create: (path, mode) => {
        locked ||= path.endsWith('.kimi-lock');
        return base.create(path, mode);
      },
      open: async (path, mode) => {
        // Another process on the host, once the path was checked under the lock: the directory moved out, with the
        // file and its lock, and a link to where it went put in its place.
        if (locked && !swapped && path === file) {
          swapped = true;
          await nodeFs.rename(tree.at('dir'), elsewhere);
          await nodeFs.symlink(elsewhere, tree.at('dir'));
        }
        return base.open(path, mode);
      },
    };
    const runtime = createRuntime({ workDir: base.root, approval: yoloApproval(), fs: swapping });
    await readFirst(runtime, 'dir/a.txt');
    const result = await new StrReplaceFile(runtime, {}).call({
      path: 'dir/a.txt',
      edit: { old: 'value', new: 'name' },
    });
    expect(swapped).toBe(true);
    expect(result.brief).toBe('File modified');
    expect(await nodeFs.readFile(path.join(elsewhere, 'a.txt'), 'utf8')).toBe('value=1\n');
    expect(await settledNames(elsewhere, base)).toEqual(['a.txt']);
  });

  test('a file rewritten by another process between the read and the write, size and time kept: refused by its content hash', async () => {
    const file = await tree.write('a.txt', 'value=1\n');
    const { runtime } = await remoteRuntime();
    await readFirst(runtime, 'a.txt');
    // SFTP shows neither a change time nor an inode, and the time is whole seconds: only the content tells.
    await rewriteKeepingMtime(file, 'value=2\n');
    const edit = await new StrReplaceFile(runtime, {}).call({
      path: 'a.txt',
      edit: { old: 'value', new: 'name' },
    });
    expect(edit.brief).toBe('File modified');
    expect(edit.message).toBe(
      '`a.txt` has been modified since it was last read, and the change touches the lines the edit would change ' +
        '(line 1). No changes were made. Those lines now read:\n```\n     1\tvalue=2\n```\n' +
        'What changed since the read:\n```diff\n@@ -1,1 +1,1 @@\n-value=1\n+value=2\n```\nEdit against the current lines.',
    );
    const write = await new WriteFile(runtime, {}).call({ path: 'a.txt', content: 'other\n' });
    expect(write.message).toBe(
      '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again ' +
        'before writing to it.',
    );
    expect(await nodeFs.readFile(file, 'utf8')).toBe('value=2\n');
  });
});

describe('two clients editing one remote file', () => {
  /** Approvals that answer only once `count` were asked: the edits reach their writes together. */
  function meetingApproval(count: number): Approval {
    let asked = 0;
    let meet: () => void = () => undefined;
    const met = new Promise<void>((resolve) => (meet = resolve));
    return {
      request: async () => {
        if (++asked === count) meet();
        await met;
        return { kind: 'approve' };
      },
    };
  }

  test('the same line at once: one edit lands, the other is refused, no update is lost', async () => {
    const file = await tree.write('a.txt', 'alpha\nvalue=1\ngamma\n');
    const approval = meetingApproval(2);
    const clients = [
      await remoteRuntime(tree.workDir, { approval }),
      await remoteRuntime(tree.workDir, { approval }),
    ];
    for (const { runtime } of clients) await readFirst(runtime, 'a.txt');
    const results = await Promise.all(
      clients.map(({ runtime }, index) =>
        new StrReplaceFile(runtime, {}).call({
          path: 'a.txt',
          edit: { old: 'value=1', new: `value=${index + 2}` },
        }),
      ),
    );
    const landed = results.findIndex((result) => result.message === EDITED);
    expect(landed).toBeGreaterThanOrEqual(0);
    expect(results[1 - landed]!.brief).toBe('File modified');
    expect(await nodeFs.readFile(file, 'utf8')).toBe(`alpha\nvalue=${landed + 2}\ngamma\n`);
    expect(await settledNames(tree.workDir, ...clients.map(({ fs }) => fs))).toEqual(['a.txt']);
  });

  test('one after the other, each from its own read: the second lands on top of the first', async () => {
    const file = await tree.write('a.txt', 'first=1\nmiddle\nlast=1\n');
    const clients = [await remoteRuntime(), await remoteRuntime()];
    for (const { runtime } of clients) await readFirst(runtime, 'a.txt');
    const first = await new StrReplaceFile(clients[0]!.runtime, {}).call({
      path: 'a.txt',
      edit: { old: 'first=1', new: 'first=2' },
    });
    expect(first.message).toBe(EDITED);
    // The file changed since the second client read it, on lines its edit does not touch.
    const second = await new StrReplaceFile(clients[1]!.runtime, {}).call({
      path: 'a.txt',
      edit: { old: 'last=1', new: 'last=2' },
    });
    expect(second.isError).toBe(false);
    expect(await nodeFs.readFile(file, 'utf8')).toBe('first=2\nmiddle\nlast=2\n');
    expect(await settledNames(tree.workDir, ...clients.map(({ fs }) => fs))).toEqual(['a.txt']);
  });

  test('a lock left by a client on another host holds until it stayed unchanged for staleMs here, whatever its time says', async () => {
    const file = await tree.write('a.txt', 'x');
    const lock = tree.at('.a.txt.kimi-lock');
    const { fs } = await remoteRuntime();
    const hour = 3_600_000;
    // Its clock an hour behind or an hour ahead: neither makes the lock stale, nor keeps it forever.
    for (const skew of [-hour, hour]) {
      await nodeFs.writeFile(lock, '4242\nother-host-token\n');
      const at = new Date(Date.now() + skew);
      await nodeFs.utimes(lock, at, at);
      await expect(
        withFileLock(fs, file, async () => 'ran', { staleMs: 3_000, timeoutMs: 500 }),
      ).rejects.toThrow(`${file} is locked by another writer (${lock}); try again later.`);
      expect(await nodeFs.readFile(lock, 'utf8')).toBe('4242\nother-host-token\n');
    }
    // Unchanged for staleMs on this process's clock: its holder is gone, and the lock is broken.
    expect(await withFileLock(fs, file, async () => 'ran', { staleMs: 3_000, timeoutMs: 10_000 })).toBe(
      'ran',
    );
    expect(await settledNames(tree.workDir, fs)).toEqual(['a.txt']);
  });

  test('on a host whose clock is an hour behind or ahead, the clean-up keeps a fresh temp file and a live lock, and removes an old temp file', async () => {
    const file = await tree.write('a.txt', 'x');
    const { fs } = await remoteRuntime();
    const hour = 3_600_000;
    for (const skew of [-hour, hour]) {
      const host = onSkewedClock(fs, skew);
      const [fresh, old] = [tree.at('.b.txt.kimi-tmp-ba9876543210'), tree.at('.c.txt.kimi-tmp-0123456789ab')];
      await nodeFs.writeFile(fresh, 'fresh');
      await nodeFs.writeFile(old, 'old');
      const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
      await nodeFs.utimes(old, tenMinutesAgo, tenMinutesAgo);
      // Held past a refresh (every second, the least staleMs over SFTP), then cleaned up under the held lock.
      const removed = await withFileLock(
        host,
        file,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          return cleanupStaleTempFiles(host, tree.workDir);
        },
        { staleMs: 3_000, timeoutMs: 5_000 },
      );
      expect(removed).toEqual([old]);
      // The lock's removal is sent, not waited for: a request after it finds it made.
      expect(await settledNames(tree.workDir, fs)).toEqual(['.b.txt.kimi-tmp-ba9876543210', 'a.txt']);
      await nodeFs.rm(fresh);
    }
  });

  test('a live holder that works past staleMs is never broken by the other client: its refreshes show it alive', async () => {
    const file = await tree.write('a.txt', 'x');
    const [first, second] = [await remoteRuntime(), await remoteRuntime()];
    const events: string[] = [];
    const hold = (name: string, fs: SshFileSystem, holdMs: number) =>
      withFileLock(
        fs,
        file,
        async () => {
          events.push(`${name} in`);
          await new Promise((resolve) => setTimeout(resolve, holdMs));
          events.push(`${name} out`);
        },
        // The least staleMs over SFTP (three of its one-second ticks); refreshed every second.
        { staleMs: 3_000, timeoutMs: 15_000 },
      );
    const held = hold('first', first.fs, 4_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([held, hold('second', second.fs, 0)]);
    expect(events).toEqual(['first in', 'first out', 'second in', 'second out']);
  });
});

describe('a clean-up of graves, the temp directories a removal over SSH goes through', () => {
  /**
   * A grave as a removal makes it, holding `held` (a name and a file's content, or a directory without), stamped
   * `minutesAgo` on the host.
   */
  async function grave(name: string, minutesAgo: number, held?: [string, string?]): Promise<string> {
    const dir = tree.at(name);
    await nodeFs.mkdir(dir);
    const [heldName, content] = held ?? [];
    if (heldName !== undefined && content !== undefined)
      await nodeFs.writeFile(path.join(dir, heldName), content);
    else if (heldName !== undefined) await nodeFs.mkdir(path.join(dir, heldName));
    const at = new Date(Date.now() - minutesAgo * 60_000);
    await nodeFs.utimes(dir, at, at);
    return dir;
  }

  test('on a host an hour behind or ahead, an old one a removal cut off left goes with what it took, a live one stays, and so does one holding anything else', async () => {
    await tree.write('a.txt', 'x');
    const { fs } = await remoteRuntime();
    for (const skew of [-3_600_000, 3_600_000]) {
      const host = onSkewedClock(fs, skew);
      // Killed between the rename into the grave and its removal: a commit's removed file, a released lock.
      const left = [
        await grave('.d.txt.kimi-tmp-0123456789ab', 10, ['removed', 'deleted by a patch\n']),
        await grave('..a.txt.kimi-lock.kimi-tmp-00112233aabb', 10, ['removed', '4242\n00112233aabbccdd\n']),
        // Killed between the grave's making and the rename into it.
        await grave('.e.txt.kimi-tmp-0000000000ee', 10),
      ];
      const kept = [
        // A commit's grave in use, made a moment ago.
        await grave('.f.txt.kimi-tmp-ba9876543210', 0, ['removed', 'being removed\n']),
        // Named as ours, but holding what no removal puts there.
        await grave('.g.txt.kimi-tmp-fedcba987654', 10, ['notes.txt', 'mine\n']),
        await grave('.h.txt.kimi-tmp-0a0b0c0d0e0f', 10, ['removed']),
      ];
      expect((await cleanupStaleTempFiles(host, tree.workDir)).sort()).toEqual(left.sort());
      expect(await settledNames(tree.workDir, fs)).toEqual(
        [...kept.map((dir) => path.basename(dir)), 'a.txt'].sort(),
      );
      expect(await nodeFs.readFile(path.join(kept[1]!, 'notes.txt'), 'utf8')).toBe('mine\n');
      for (const dir of kept) await nodeFs.rm(dir, { recursive: true });
    }
  });
});

describe('a clean-up whose look at the host’s clock is cut off', () => {
  test('on a host whose clock is an hour behind, a drop at the clock’s probe never has a fresh temp file or a live lock taken for old', async () => {
    let trap: ((request: string) => void) | undefined;
    const { fs } = await remoteRuntime(tree.workDir, { ssh: { onRequest: (request) => trap?.(request) } });
    const host = onSkewedClock(fs, -3_600_000);
    const names = ['.a.txt.kimi-lock', '.b.txt.kimi-tmp-ba9876543210'];
    for (const name of names) await nodeFs.writeFile(tree.at(name), 'live');
    const serving = await ssh.server.sessionProcesses();
    // The probe is the first file the clean-up opens (its listing is the host program's, or SFTP's opendir).
    trap = (request) => {
      if (request !== 'open') return;
      trap = undefined;
      for (const pid of serving) process.kill(pid, 'SIGKILL');
    };
    const removed = await cleanupStaleTempFiles(host, tree.workDir).catch((error: unknown) => error);
    expect(trap).toBeUndefined();
    expect(removed).toEqual([]);
    expect(await settledNames(tree.workDir, fs)).toEqual(names);
  });
});

describe('a slow link', () => {
  test('an edit over 40 ms round trips, with keepalives every 100 ms, lands whole', async () => {
    const link = await slowLink(ssh.server, 20);
    try {
      const file = await tree.write('a.txt', 'alpha\nvalue=1\n');
      const { runtime } = await remoteRuntime(tree.workDir, {
        ssh: { host: link.host, port: link.port, keepaliveIntervalMs: 100 },
      });
      await readFirst(runtime, 'a.txt');
      const result = await new StrReplaceFile(runtime, {}).call({
        path: 'a.txt',
        edit: { old: 'value=1', new: 'value=2' },
      });
      expect(result.message).toBe(EDITED);
      expect(await nodeFs.readFile(file, 'utf8')).toBe('alpha\nvalue=2\n');
      expect(await settledNames(tree.workDir, runtime.fs)).toEqual(['a.txt']);
    } finally {
      await link.close();
    }
  });

  test('a link that goes dark mid-write: keepalives end the call with ECONNRESET, and nothing is lost or left', async () => {
    const link = await slowLink(ssh.server, 5);
    try {
      const content = `${'x'.repeat(600_000)}\nMARKER\n`;
      const file = await tree.write('big.txt', content);
      let writes = 0;
      const { runtime } = await remoteRuntime(tree.workDir, {
        ssh: {
          host: link.host,
          port: link.port,
          keepaliveIntervalMs: 100,
          // The lock file's content is the first write; the temp file's come next.
          onRequest: (request) => request === 'write' && ++writes === 2 && link.goDark(),
        },
      });
      await readFirst(runtime, 'big.txt');
      const result = await new StrReplaceFile(runtime, {}).call({
        path: 'big.txt',
        edit: { old: 'MARKER', new: 'CHANGED' },
      });
      expect(result.message).toMatch(
        /^Failed to edit\. Error: ECONNRESET: the SSH connection to \S+@127\.0\.0\.1:\d+ was lost \(Keepalive timeout\); the next call reconnects, write '[^']*\/\.big\.txt\.kimi-tmp-[0-9a-f]{12}'$/,
      );
      expect(await nodeFs.readFile(file, 'utf8')).toBe(content);
      // The temp file and the lock were removed through a new connection, in the same call (the lock's removal sent).
      expect(await settledNames(tree.workDir, runtime.fs)).toEqual(['big.txt']);
    } finally {
      await link.close();
    }
  });
});

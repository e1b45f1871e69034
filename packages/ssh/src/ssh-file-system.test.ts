import { execFile } from 'node:child_process';
import { appendFileSync, promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { createTempWorkspace, startSshServer, type TempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { countedConnection } from './__fixtures__/request-levels.js';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import { sshFileSystem } from './ssh-file-system.js';

const run = promisify(execFile);
const ssh = useSshServer();
let tree: TempWorkspace;
beforeEach(async () => {
  tree = await createTempWorkspace();
});
afterEach(() => tree.cleanup());

/** A connection to the workspace that keeps every request sent once its `close()` has returned. */
async function connectWatchingClose() {
  const sentAfterClose: string[] = [];
  let closed = false;
  const fs = await ssh.connect(tree.workDir, {
    onRequest: (request) => {
      if (closed) sentAfterClose.push(request);
    },
  });
  return {
    fs,
    close: async () => {
      await fs.close();
      closed = true;
    },
    /** What was sent after the close, once a late recovery had time to send its own (a few turns of the loop). */
    sentAfterClose: async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return sentAfterClose;
    },
  };
}

describe('sshFileSystem', () => {
  test('states exactly what SFTP can do, and takes its home from the server', async () => {
    const fs = await ssh.connect(tree.workDir);
    expect(fs.name).toBe('ssh');
    expect(fs.platform).toBe('linux');
    expect(fs.homeDir).toBe(os.userInfo().homedir);
    expect(fs.capabilities).toEqual({
      atomicReplace: true,
      exclusiveCreate: true,
      fsync: true,
      timeResolutionMs: 1000,
      inodes: false,
      ctime: false,
      linkCounts: false,
      localProcesses: false,
      exec: true,
      requestsInOrder: true,
    });
    const stats = await fs.stat(await tree.write('a.txt', 'abc'));
    for (const field of ['ino', 'dev', 'nlink', 'ctimeNs', 'mtimeNs'] as const)
      expect(field in stats).toBe(false);
    expect(stats.mtimeMs % 1000).toBe(0);
  });

  test('names itself by the user, host and port it logs in to', async () => {
    const fs = await ssh.connect(tree.workDir);
    const { username, host, port } = ssh.server;
    expect(fs.identity).toBe(`ssh ${username}@${host}:${port}`);
  });

  test("reads the host's clock from a file it makes in the temp directory, and leaves nothing there", async () => {
    const fs = await ssh.connect(tree.workDir);
    const probes = async () =>
      (await nodeFs.readdir('/tmp')).filter((name) => name.startsWith('.kimi-clock.kimi-tmp-'));
    const leftBefore = await probes();
    // Linux stamps a file from its coarse clock, up to a tick (10 ms at HZ=100) behind the one Date.now reads: a
    // file made just after a second began may bear the second before.
    const before = Math.floor((Date.now() - 10) / 1000) * 1000;
    const now = await fs.now();
    const after = Date.now();
    // The loopback host shares this machine's clock; SFTP stamps whole seconds.
    expect(now % 1000).toBe(0);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(after);
    expect(await probes()).toEqual(leftBefore);
  });

  test('gives the root by its canonical path, and refuses a root that is missing or not a directory', async () => {
    const link = await tree.symlink(tree.outside('work-link'), tree.workDir);
    expect((await ssh.connect(link)).root).toBe(tree.workDir);
    await expect(ssh.connect(tree.at('missing'))).rejects.toMatchObject({
      code: 'ENOENT',
      message: `ENOENT: no such file or directory, scandir '${tree.at('missing')}'`,
    });
    const file = await tree.write('file.txt');
    await expect(ssh.connect(file)).rejects.toMatchObject({
      code: 'ENOTDIR',
      message: `ENOTDIR: not a directory, scandir '${file}'`,
    });
  });

  test('refuses options it cannot use before connecting', async () => {
    const options = ssh.options(tree.workDir);
    const refused = (overrides: object) => sshFileSystem({ ...options, ...overrides });
    await expect(refused({ root: 'work' })).rejects.toThrow(
      'EINVAL: sshFileSystem: root "work" must be an absolute path on the host',
    );
    await expect(refused({ privateKey: undefined })).rejects.toThrow(
      'EINVAL: sshFileSystem: give a privateKey or an agent to log in with',
    );
    await expect(refused({ port: 70_000 })).rejects.toThrow(
      'EINVAL: sshFileSystem: port 70000 is not a TCP port',
    );
    for (const answerTimeoutMs of [0, -1, Number.POSITIVE_INFINITY, 2 ** 31, Number.NaN]) {
      // A Node timer of 2^31 ms or more fires at once.
      await expect(refused({ answerTimeoutMs })).rejects.toThrow(
        'EINVAL: sshFileSystem: answerTimeoutMs must be a number of milliseconds, above 0 and at most 2147483647',
      );
    }
    for (const name of ['connectTimeoutMs', 'keepaliveIntervalMs']) {
      for (const value of [-1, Number.POSITIVE_INFINITY, 2 ** 31, Number.NaN]) {
        // 2^31 ms or more: Node fires the timer at once (no connection could be made; keepalives without end).
        await expect(refused({ [name]: value })).rejects.toThrow(
          `EINVAL: sshFileSystem: ${name} must be a number of milliseconds, 0 or more and at most 2147483647`,
        );
      }
    }
    await expect(refused({ hostKey: [] })).rejects.toThrow(
      'EINVAL: sshFileSystem: hostKey lists no key: leave it out to let known_hosts decide',
    );
    await expect(refused({ privateKey: 'not a key' })).rejects.toMatchObject({
      code: 'EINVAL',
      message: expect.stringMatching(
        /^EINVAL: cannot connect to \S+@127\.0\.0\.1:\d+: Cannot parse privateKey/,
      ),
    });
  });

  test('says which host refused the login, or could not be reached', async () => {
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', tree.outside('other')]);
    const privateKey = await nodeFs.readFile(tree.outside('other'), 'utf8');
    const target = `${ssh.server.username}@127.0.0.1:${ssh.server.port}`;
    await expect(ssh.connect(tree.workDir, { privateKey })).rejects.toMatchObject({
      code: 'ERR_SSH_AUTHENTICATION',
      message:
        `ERR_SSH_AUTHENTICATION: ${target} refused the authentication (All configured authentication methods ` +
        'failed): check the username and the key',
    });
    // A port nobody listens on: the server's own, once it is stopped, is not known to be free; port 1 is never ours.
    await expect(ssh.connect(tree.workDir, { port: 1 })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
      message: `ECONNREFUSED: cannot connect to ${ssh.server.username}@127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1`,
    });
  });

  test('a host without the SFTP subsystem is ENOSYS, saying so', async () => {
    const bare = await startSshServer({ sftp: false });
    try {
      const target = `${bare.username}@127.0.0.1:${bare.port}`;
      const options = { ...ssh.options(tree.workDir), port: bare.port, hostKey: bare.hostKeys[0]!.line };
      await expect(sshFileSystem({ ...options, privateKey: bare.privateKey })).rejects.toMatchObject({
        code: 'ENOSYS',
        message: `ENOSYS: ${target} offers no SFTP subsystem (Unable to start subsystem: sftp)`,
      });
    } finally {
      await bare.stop();
    }
  });

  test('a host whose SFTP server never answers its start is ETIMEDOUT, not a wait without end', async () => {
    // As when the login shell that starts the subsystem hangs: the channel opens, and nothing answers on it (a
    // subsystem that reads what is sent and never answers, and ends with the channel).
    const silent = await startSshServer({ sftp: 'cat > /dev/null' });
    try {
      const target = `${silent.username}@127.0.0.1:${silent.port}`;
      const options = { ...ssh.options(tree.workDir), port: silent.port, hostKey: silent.hostKeys[0]!.line };
      await expect(
        sshFileSystem({ ...options, privateKey: silent.privateKey, connectTimeoutMs: 1000 }),
      ).rejects.toMatchObject({
        code: 'ETIMEDOUT',
        message: `ETIMEDOUT: ${target} did not start its SFTP server within 1000 ms`,
      });
      // The connection was ended: the server serves nothing for it any more.
      await expect.poll(() => silent.sessionProcesses(), { timeout: 5000 }).toEqual([]);
    } finally {
      await silent.stop();
    }
  });

  test('takes absolute paths only', async () => {
    const fs = await ssh.connect(tree.workDir);
    await expect(fs.stat('a.txt')).rejects.toMatchObject({
      code: 'EINVAL',
      message: "EINVAL: paths on the SSH backend are absolute, stat 'a.txt'",
    });
  });

  test('close ends the connection, twice is harmless, and the next call connects again', async () => {
    const before = await ssh.server.sessionProcesses();
    const fs = await ssh.connect(tree.workDir);
    const file = await tree.write('a.txt', 'abc');
    const ours = (await ssh.server.sessionProcesses()).filter((pid) => !before.includes(pid));
    expect(ours).not.toEqual([]);
    await fs.close?.();
    await fs.close?.();
    const serving = async () => (await ssh.server.sessionProcesses()).filter((pid) => ours.includes(pid));
    await expect.poll(serving).toEqual([]);
    expect((await fs.stat(file)).size).toBe(3);
    await fs.close?.();
  });

  test('close lets the calls in flight end first, with those they lead to, and connects no more', async () => {
    // A lock's release is sent and not waited for (`requestsInOrder`), so an agent that closes right after its last
    // write closes with it in flight: cut off, its recovery connected again after close, and the process never ended.
    const watched = await connectWatchingClose();
    const [first, second] = await Promise.all([tree.write('first.txt', '1'), tree.write('second.txt', '2')]);
    const removals = watched.fs.unlink(first).then(() => watched.fs.unlink(second));
    await watched.close();
    await expect(removals).resolves.toBeUndefined();
    await expect(nodeFs.readdir(tree.workDir)).resolves.toEqual([]);
    expect(await watched.sentAfterClose()).toEqual([]);
  });

  test("an agent that closes right after its write leaves no lock or grave, and the close is the connection's last", async () => {
    const watched = await connectWatchingClose();
    const runtime = createRuntime({ workDir: watched.fs.root, approval: yoloApproval(), fs: watched.fs });
    const written = await new WriteFile(runtime, {}).call({ path: 'a.txt', content: 'new\n' });
    expect(written.message).toBe('File successfully overwritten. Current size: 4 bytes.');
    await watched.close();
    expect(await nodeFs.readdir(tree.workDir)).toEqual(['a.txt']);
    expect(await watched.sentAfterClose()).toEqual([]);
  });

  test('reports a link that points outside the root as a link: confining is the policy of core', async () => {
    const secret = await nodeFs
      .writeFile(tree.outside('secret.txt'), 'secret')
      .then(() => tree.outside('secret.txt'));
    const link = await tree.symlink('escape', secret);
    const fs = await ssh.connect(tree.workDir);
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect(await fs.readlink(link)).toBe(secret);
    expect(await fs.realpath(link)).toBe(secret);
    const entries = await fs.readdir(tree.workDir);
    expect(entries.map((entry) => [entry.name, entry.isSymbolicLink()])).toEqual([['escape', true]]);
  });

  test('lists a directory of many entries, which the server sends in several batches', async () => {
    const names = Array.from({ length: 450 }, (_, index) => `file-${index}.txt`);
    await tree.writeAll(Object.fromEntries(names.map((name) => [name, ''])));
    const requests: string[] = [];
    const fs = await ssh.connect(tree.workDir, { onRequest: (request) => requests.push(request) });
    requests.length = 0;
    const listed = (await fs.readdir(tree.workDir)).map((entry) => entry.name);
    expect(listed.sort()).toEqual([...names].sort());
    expect(requests.filter((request) => request === 'readdir').length).toBeGreaterThan(2);
  });

  test('a FIFO is never opened on the server, so it cannot stall the session', async () => {
    const fifo = tree.at('pipe');
    await run('mkfifo', [fifo]);
    const requests: string[] = [];
    const fs = await ssh.connect(tree.workDir, { onRequest: (request) => requests.push(request) });
    requests.length = 0;
    const file = await fs.open(fifo, 'read');
    expect((await file.stat()).isFIFO()).toBe(true);
    await expect(file.read(Buffer.alloc(1), 0, 1, 0)).rejects.toMatchObject({ code: 'EAGAIN' });
    await file.close();
    expect(requests).toEqual(['stat']);
    expect((await fs.stat(tree.workDir)).isDirectory()).toBe(true);
  });

  test('a path resolved just before it is opened is opened on the stat sent with its realpath, never a stale one', async () => {
    const file = await tree.write('a.txt', 'abc');
    const other = await tree.write('b.txt', 'other');
    const requests: string[] = [];
    const fs = await ssh.connect(tree.workDir, { onRequest: (request) => requests.push(request) });
    const readWhole = async (path: string) => {
      const opened = await fs.open(path, 'read');
      const stats = await opened.stat();
      const bytes = Buffer.alloc(16);
      const { bytesRead } = stats.isFile() ? await opened.read(bytes, 0, 16, 0) : { bytesRead: 0 };
      await opened.close();
      return { fifo: stats.isFIFO(), text: bytes.subarray(0, bytesRead).toString() };
    };
    // Opened at once: no stat of its own.
    requests.length = 0;
    expect(await readWhole(await fs.realpathLastMayBeMissing!(file))).toEqual({ fifo: false, text: 'abc' });
    expect(requests).toEqual(['realpath', 'stat', 'open', 'read', 'close']);
    // Made a FIFO after the event loop turned: that stat is too old to keep the FIFO from being opened.
    const real = await fs.realpathLastMayBeMissing!(file);
    await new Promise((resolve) => setImmediate(resolve));
    await nodeFs.rm(file);
    await run('mkfifo', [file]);
    requests.length = 0;
    expect(await readWhole(real)).toEqual({ fifo: true, text: '' });
    expect(requests).toEqual(['stat']);
    // Renamed over by this session in between: asked again.
    const target = await fs.realpathLastMayBeMissing!(await tree.write('c.txt', 'ccc'));
    requests.length = 0;
    const [, read] = await Promise.all([fs.rename(other, target), readWhole(target)]);
    expect(read).toEqual({ fifo: false, text: 'other' });
    // The rename opens its directory along, for a sync that does not follow here: it is closed again whenever the
    // open's answer is in.
    expect(requests.slice(0, 2)).toEqual(['posix-rename@openssh.com', 'open']);
    const rest = requests.slice(2);
    rest.splice(rest.indexOf('close'), 1);
    expect(rest).toEqual(['stat', 'open', 'read', 'close']);
    await fs.close();
  });

  test('a full disk on the host is ENOSPC, at the flush or the close after the write, and the file it was to replace is untouched', async () => {
    const mountPoint = await tree.mkdir('small');
    await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
    try {
      const target = path.join(mountPoint, 'target.txt');
      await nodeFs.writeFile(target, 'kept');
      const fs = await ssh.connect(tree.workDir);
      const file = await fs.create(path.join(mountPoint, '.target.txt.tmp'));
      const content = Buffer.alloc(2 * 1024 * 1024, 'x');
      // The write is sent without waiting for its answer: the flush that follows it reports its failure.
      await file.write(content, 0, content.length, 0);
      await expect(file.sync()).rejects.toMatchObject({
        code: 'ENOSPC',
        message: `ENOSPC: no space left on device, write '${mountPoint}/.target.txt.tmp'`,
      });
      await file.close();
      // Closed without a flush, the write's failure is the close's.
      const unflushed = await fs.create(path.join(mountPoint, '.target.txt.tmp2'));
      await unflushed.write(content, 0, content.length, 0);
      await expect(unflushed.close()).rejects.toMatchObject({
        code: 'ENOSPC',
        message: `ENOSPC: no space left on device, write '${mountPoint}/.target.txt.tmp2'`,
      });
      expect(await nodeFs.readFile(target, 'utf8')).toBe('kept');
      await fs.close?.();
    } finally {
      await run('umount', [mountPoint]);
    }
  });
});

describe('SFTP requests', () => {
  /** The requests `work` sends, one array per round trip (requests that went out without waiting for each other). */
  async function requestsOf(
    work: (fs: Awaited<ReturnType<typeof ssh.connect>>) => Promise<unknown>,
    beforeEach?: (request: string) => void,
  ) {
    const { fs, levels, close } = await countedConnection(ssh, tree.workDir, beforeEach);
    try {
      await work(fs);
      return levels.trips();
    } finally {
      await close();
    }
  }

  /** Reads a whole file as core does: open, the stats of the handle, read one byte past the size until 0, close. */
  async function readAsCore(fs: Awaited<ReturnType<typeof ssh.connect>>, file: string) {
    const opened = await fs.open(file, 'read');
    const { size } = await opened.stat();
    const buffer = Buffer.alloc(size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await opened.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    await opened.close();
    return buffer.subarray(0, length);
  }

  test("the host's clock is a create, then its stats, close and removal together", async () => {
    expect(await requestsOf((fs) => fs.now())).toEqual([['open'], ['fstat', 'close', 'remove']]);
  });

  test('stat is one request', async () => {
    const file = await tree.write('a.txt', 'abc');
    expect(await requestsOf((fs) => fs.stat(file))).toEqual([['stat']]);
  });

  test('a 4 KB file is read whole in one request, its end confirming the size the stat gave: no fstat', async () => {
    const file = await tree.write('small.txt', 'x'.repeat(4096));
    const requests = await requestsOf(async (fs) => expect((await readAsCore(fs, file)).length).toBe(4096));
    expect(requests).toEqual([['stat'], ['open'], ['read'], ['close']]);
  });

  test('a small file read again, and its stats asked again, cost no more requests', async () => {
    const file = await tree.write('small.txt', 'abcdef');
    const requests = await requestsOf(async (fs) => {
      const opened = await fs.open(file, 'read');
      expect((await opened.stat()).size).toBe(6);
      expect((await opened.stat()).size).toBe(6);
      const buffer = Buffer.alloc(7);
      expect(await opened.read(buffer, 0, 3, 0)).toEqual({ bytesRead: 3 });
      expect(await opened.read(buffer, 3, 4, 3)).toEqual({ bytesRead: 3 });
      expect(await opened.read(buffer, 6, 1, 6)).toEqual({ bytesRead: 0 });
      expect(await opened.read(buffer, 0, 7, 0)).toEqual({ bytesRead: 6 });
      expect(buffer.subarray(0, 6).toString()).toBe('abcdef');
      await opened.close();
    });
    expect(requests).toEqual([['stat'], ['open'], ['read'], ['close']]);
  });

  test('a small file that grew between the stat and the open has its own stats asked, and is read past what was read ahead', async () => {
    const file = await tree.write('growing.txt', 'x'.repeat(100));
    let read: Buffer | undefined;
    // Just before it is opened, the file grows: the 101 bytes read ahead cannot be its end.
    const grow = (request: string) => request === 'open' && appendFileSync(file, 'y'.repeat(300));
    const requests = await requestsOf(async (fs) => (read = await readAsCore(fs, file)), grow);
    expect(read?.toString()).toBe(`${'x'.repeat(100)}${'y'.repeat(300)}`);
    expect(requests).toEqual([['stat'], ['open'], ['read'], ['fstat'], ['read'], ['close']]);
  });

  test('a read that comes back short before the size stat gave is not taken for the end: the server is asked', async () => {
    // Larger than what is read as a file is opened (8 reads of 261,120 bytes), so nothing is read ahead.
    const file = await tree.write('shrinking.txt', 'x'.repeat(2_100_000));
    const requests = await requestsOf(async (fs) => {
      const opened = await fs.open(file, 'read');
      expect((await opened.stat()).size).toBe(2_100_000);
      await nodeFs.truncate(file, 150_000);
      const buffer = Buffer.alloc(300_001);
      expect(await opened.read(buffer, 0, 300_001, 0)).toEqual({ bytesRead: 150_000 });
      expect(await opened.read(buffer, 150_000, 150_001, 150_000)).toEqual({ bytesRead: 0 });
      await opened.close();
    });
    expect(requests).toEqual([['stat'], ['open'], ['fstat'], ['read', 'read'], ['read'], ['close']]);
  });

  test('a 1 MiB file is read whole as it is opened, in parts of the largest size the server serves, all sent at once', async () => {
    const content = Buffer.alloc(1024 * 1024);
    for (let index = 0; index < content.length; index++) content[index] = (index * 7) % 251;
    const file = await tree.write('large.bin', content);
    let read: Buffer | undefined;
    const requests = await requestsOf(async (fs) => (read = await readAsCore(fs, file)));
    expect(read?.equals(content)).toBe(true);
    // OpenSSH serves 261,120 bytes a read (limits@openssh.com): 1,048,577 bytes asked for are five parts.
    expect(requests).toEqual([['stat'], ['open'], ['read', 'read', 'read', 'read', 'read'], ['close']]);
  });

  test('an atomic write is exclusive create, write and fsync sent together, close, posix-rename with the directory opened, its fsync with the stat core asks next', async () => {
    const target = await tree.write('target.txt', 'old');
    let size: number | undefined;
    const requests = await requestsOf(async (fs) => {
      const temp = tree.at('.target.txt.tmp');
      const file = await fs.create(temp);
      await file.write(Buffer.alloc(4096, 'n'), 0, 4096, 0);
      await file.sync();
      await file.close();
      await fs.rename(temp, target);
      await fs.syncDirectory(tree.workDir);
      size = (await fs.stat(target)).size;
    });
    expect(requests).toEqual([
      ['open'],
      ['write', 'fsync@openssh.com'],
      ['close', 'posix-rename@openssh.com', 'open'],
      ['fsync@openssh.com', 'stat'],
      ['close'],
    ]);
    expect(size).toBe(4096);
    expect(await nodeFs.readFile(target, 'utf8')).toBe('n'.repeat(4096));
  });

  test('a rename no sync follows closes the directory it opened; a stat after something changed is asked again', async () => {
    const target = await tree.write('target.txt', 'old');
    const [first, second, removed] = await Promise.all(
      ['a', 'bb', 'c'].map((text) => tree.write(`${text}.tmp`, text)),
    );
    let closed: () => void;
    const closing = new Promise<void>((resolve) => (closed = resolve));
    const requests = await requestsOf(
      async (fs) => {
        await fs.rename(first!, target);
        await closing;
        await fs.rename(second!, target);
        await fs.syncDirectory(tree.workDir);
        await fs.unlink(removed!);
        expect((await fs.stat(target)).size).toBe(2);
      },
      (request) => request === 'close' && closed(),
    );
    expect(requests).toEqual([
      ['posix-rename@openssh.com', 'open'],
      ['close', 'posix-rename@openssh.com', 'open'],
      ['fsync@openssh.com', 'stat'],
      ['close', 'remove'],
      ['stat'],
    ]);
  });
});

import { promises as nodeFs } from 'node:fs';
import type { FileSystem, OpenFile } from '@kimi-tools/core/fs';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

// A connection killed on the server's side, at a request chosen by the test: the processes serving it (sshd's
// session process and its sftp-server) get SIGKILL just before that request goes out, so it never gets an answer.
const ssh = useSshServer();
let tree: TempWorkspace;
let trap: ((request: string) => void) | undefined;
let fs: FileSystem;
beforeEach(async () => {
  tree = await createTempWorkspace();
  trap = undefined;
  fs = await ssh.connect(tree.workDir, { onRequest: (request) => trap?.(request) });
});
afterEach(async () => {
  await fs.close?.();
  await tree.cleanup();
});

/** Kills the processes serving the connections open now, just before the `nth` request named `name`. */
async function dropAt(name: string, nth = 1, only?: (pid: number) => Promise<boolean>): Promise<void> {
  let pids = await ssh.server.sessionProcesses();
  if (only) pids = (await Promise.all(pids.map(async (pid) => ((await only(pid)) ? [pid] : [])))).flat();
  expect(pids.length).toBeGreaterThan(0);
  let seen = 0;
  trap = (request) => {
    if (request !== name || ++seen !== nth) return;
    for (const pid of pids) process.kill(pid, 'SIGKILL');
  };
}

const LOST = new RegExp(
  String.raw`^ECONNRESET: the SSH connection to \S+@127\.0\.0\.1:\d+ was lost \(.+\); the next call reconnects, `,
);

describe('a dropped connection', () => {
  test('fails the call in flight with ECONNRESET naming the host, and the next call connects again', async () => {
    const file = await tree.write('a.txt', 'hello');
    const before = await ssh.server.sessionProcesses();
    await dropAt('lstat');
    const error = (await fs.lstat(file).catch((thrown: unknown) => thrown)) as NodeJS.ErrnoException;
    expect(error.code).toBe('ECONNRESET');
    expect(error.message).toMatch(LOST);
    expect(error.message).toContain(`@127.0.0.1:${ssh.server.port} was lost`);
    expect(error.message.endsWith(`, lstat '${file}'`)).toBe(true);
    trap = undefined;
    expect((await fs.stat(file)).size).toBe(5);
    const after = await ssh.server.sessionProcesses();
    expect(after.some((pid) => before.includes(pid))).toBe(false);
  });

  test('an SFTP server that ends while SSH stays up is a lost connection too', async () => {
    const file = await tree.write('a.txt', 'hello');
    const isSftpServer = async (pid: number) =>
      (await nodeFs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() === 'sftp-server';
    await dropAt('stat', 1, isSftpServer);
    await expect(fs.stat(file)).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringMatching(/was lost \(the SFTP server ended\); the next call reconnects, stat '/),
    });
    trap = undefined;
    expect((await fs.stat(file)).size).toBe(5);
  });

  test('a file opened before the drop fails with ECONNRESET even after the connection is back', async () => {
    const file = await tree.write('a.txt', 'hello');
    const opened: OpenFile = await fs.open(file, 'read');
    await dropAt('lstat');
    await expect(fs.lstat(file)).rejects.toMatchObject({ code: 'ECONNRESET' });
    trap = undefined;
    expect((await fs.stat(file)).size).toBe(5);
    await expect(opened.read(Buffer.alloc(5), 0, 5, 0)).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringMatching(LOST),
    });
    await opened.close();
  });

  test('a write cut off midway never touches the file it was to replace', async () => {
    const target = await tree.write('target.txt', 'the original\n');
    const temp = tree.at('.target.txt.tmp');
    const content = Buffer.alloc(32 * 1024 * 1024, 'x');
    const file = await fs.create(temp);
    await dropAt('write', 2);
    await expect(file.write(content, 0, content.length, 0)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await file.close();
    trap = undefined;
    expect(await nodeFs.readFile(target, 'utf8')).toBe('the original\n');
    expect((await nodeFs.stat(temp)).size).toBeLessThan(content.length);
    // The connection is back, and the file is as it was.
    expect((await fs.stat(target)).size).toBe(13);
  });

  test('a drop at the commit leaves the target whole: the old content or the new, never a part', async () => {
    const target = await tree.write('target.txt', 'old '.repeat(100_000));
    const temp = tree.at('.target.txt.tmp');
    const file = await fs.create(temp);
    const content = Buffer.from('new '.repeat(100_000));
    await file.write(content, 0, content.length, 0);
    await file.sync();
    await file.close();
    await dropAt('posix-rename@openssh.com');
    await expect(fs.rename(temp, target)).rejects.toMatchObject({ code: 'ECONNRESET' });
    trap = undefined;
    expect(['old ', 'new ']).toContain((await nodeFs.readFile(target, 'utf8')).slice(0, 4));
    const text = await nodeFs.readFile(target, 'utf8');
    expect(text === 'old '.repeat(100_000) || text === 'new '.repeat(100_000)).toBe(true);
  });
});

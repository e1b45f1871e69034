import { existsSync, promises as nodeFs, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import type { FileSystem, OpenFile } from '@kimi-tools/core/fs';
import {
  commitFileSet,
  CommitFailedError,
  stampOf,
  withFileLock,
  type CommitStep,
} from '@kimi-tools/core/toolkit';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { WriteFile } from '@kimi-tools/write';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  blockUntil,
  bytesWaitingFor,
  sftpServersAndRelays,
  waitsForWork,
} from './__fixtures__/sftp-server-processes.js';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

// A connection killed on the server's side, at a request chosen by the test: the processes serving it (sshd's
// session process and its sftp-server) get SIGKILL just before that request goes out, so it never gets an answer.
const ssh = useSshServer();
/**
 * The names in `dir`, once the connection answered what it was sent before (a lock's removal is sent, not waited
 * for: a stat asked after it is answered after it).
 */
async function settledNames(dir: string): Promise<string[]> {
  await fs.stat(dir);
  return (await nodeFs.readdir(dir)).sort();
}
let tree: TempWorkspace;
let trap: ((request: string) => void) | undefined;
let fs: FileSystem & { readonly root: string };
beforeEach(async () => {
  tree = await createTempWorkspace();
  trap = undefined;
  fs = await ssh.connect(tree.workDir, { onRequest: (request) => trap?.(request) });
});
afterEach(async () => {
  await fs.close?.();
  await tree.cleanup();
});

/**
 * Waits until no temp name is left in the work dir: a lock's release, sent and not waited for, removed its grave (or,
 * its rename's answer lost with the connection, the grave that keeps a late rename from being made).
 */
async function tempNamesGone(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (readdirSync(tree.workDir).some((name) => name.includes('.kimi-tmp-'))) {
    if (Date.now() > deadline) throw new Error(`temp names stayed: ${readdirSync(tree.workDir).join(', ')}`);
    await new Promise((go) => setTimeout(go, 10));
  }
}

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

/**
 * Loses the answer of the first request named `name` (or any of the names given) to a drop, whether or not the server
 * makes it: the SFTP server is stopped (SIGSTOP) just before the request goes out, and the sshd process relaying it is
 * killed once it has passed the request on (at least `atLeast` bytes wait in the SFTP server's input: the request is
 * there). With `made`, sshd is stopped first and the SFTP server let go: it serves the request, `madeNow()` (checked
 * while everything waits) tells when that is done, and its answer never leaves the pipe to sshd. Without, the SFTP
 * server stays stopped until the returned function is called, as a request stuck in a server on its way out.
 * Everything happens before this process sees the connection close.
 */
async function loseAnswerOf(
  name: string | readonly string[],
  atLeast: number,
  options: { made: true; madeNow: () => boolean } | { made: false },
): Promise<() => Promise<void>> {
  const [serving] = await sftpServersAndRelays(ssh.server);
  if (!serving) throw new Error('no SFTP server is serving a connection');
  const { sftp, relay } = serving;
  trap = (request) => {
    if (typeof name === 'string' ? request !== name : !name.includes(request)) return;
    trap = undefined;
    // Stopped while it had an answer to write, it would write that first on waking, find sshd gone and end there.
    blockUntil(() => waitsForWork(sftp), 'the SFTP server waits for work');
    process.kill(sftp, 'SIGSTOP');
    // The request is written out by the caller right after this returns.
    queueMicrotask(() => {
      blockUntil(() => bytesWaitingFor(sftp) >= atLeast, `sshd passed the ${request} request on`);
      if (options.made) {
        // sshd stopped in turn, the SFTP server serves the request and its answer waits in the pipe for nobody.
        process.kill(relay, 'SIGSTOP');
        process.kill(sftp, 'SIGCONT');
        blockUntil(options.madeNow, `the SFTP server made the ${request} request`);
      }
      process.kill(relay, 'SIGKILL');
    });
  };
  return async () => {
    process.kill(sftp, 'SIGCONT');
    while (await nodeFs.stat(`/proc/${sftp}`).catch(() => undefined))
      await new Promise((go) => setTimeout(go, 10));
  };
}

const LOST = new RegExp(
  String.raw`^ECONNRESET: the SSH connection to \S+@127\.0\.0\.1:\d+ was lost \(.+\); the next call reconnects, `,
);

/** The processes below `pid` now, read at once (a trap cannot wait). */
function processesBelow(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0;) {
    const current = queue.shift()!;
    for (const [child, parent] of parents) {
      if (parent !== current) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

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

describe('a tool call whose connection drops', () => {
  /** A file of more than two SFTP reads and writes, with one marker to edit near its end. */
  const CONTENT = `${'x'.repeat(600_000)}\nMARKER\n`;

  /**
   * StrReplaceFile of the marker, in a session that has read the file, with the connection killed at a request (none:
   * the test set its own trap, once the file given was written).
   */
  async function editDroppingAt(request: string | undefined, nth: number, written?: string) {
    const file = written ?? (await tree.write('big.txt', CONTENT));
    const runtime = createRuntime({ workDir: fs.root, approval: yoloApproval(), fs });
    const set = trap;
    trap = undefined;
    const stamp = await stampOf(fs, file);
    if (typeof stamp === 'string') throw new Error(`big.txt is ${stamp}`);
    runtime.fileState.recordRead(file, stamp, true);
    if (request === undefined) trap = set;
    else await dropAt(request, nth);
    const result = await new StrReplaceFile(runtime, {}).call({
      path: 'big.txt',
      edit: { old: 'MARKER', new: 'CHANGED' },
    });
    trap = undefined;
    return { file, result, runtime };
  }

  const lostIn = (syscall: string, paths: string) =>
    new RegExp(
      String.raw`^Failed to edit\. Error: ECONNRESET: the SSH connection to \S+@127\.0\.0\.1:\d+ was lost \(.+\); ` +
        String.raw`the next call reconnects, ${syscall} ${paths}$`,
    );
  const quoted = (name: string) => `'${tree.at(name).replace(/[.]/g, '\\.')}'`;
  const TEMP = String.raw`'[^']*/\.big\.txt\.kimi-tmp-[0-9a-f]{12}'`;

  test('mid-read: ReadFile fails with ECONNRESET naming the host, and the next call reads', async () => {
    await tree.write('big.txt', CONTENT);
    const tool = new ReadFile(createRuntime({ workDir: fs.root, approval: yoloApproval(), fs }), {});
    await dropAt('read', 2);
    const result = await tool.call({ path: 'big.txt' });
    trap = undefined;
    expect(result.brief).toBe('Failed to read file');
    expect(result.message).toMatch(
      new RegExp(
        String.raw`^Failed to read big\.txt\. Error: ECONNRESET: the SSH connection to \S+@127\.0\.0\.1:\d+ was lost ` +
          String.raw`\(.+\); the next call reconnects, read ${quoted('big.txt')}$`,
      ),
    );
    expect((await tool.call({ path: 'big.txt', line_offset: 2 })).message).toBe(
      '1 lines read from file starting from line 2. Total lines in file: 2. End of file reached.',
    );
  });

  test('mid-read: an edit fails and changes nothing', async () => {
    const { file, result } = await editDroppingAt('read', 2);
    expect(result.message).toMatch(lostIn('read', quoted('big.txt')));
    expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT);
    expect(await settledNames(tree.workDir)).toEqual(['big.txt']);
  });

  test('mid-write: the file is all old, and the same call removed its temp file and its lock', async () => {
    // The first write is the lock file's; the third is in the middle of the temp file.
    const { file, result } = await editDroppingAt('write', 3);
    expect(result.message).toMatch(lostIn('write', TEMP));
    expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT);
    expect(await settledNames(tree.workDir)).toEqual(['big.txt']);
  });

  test('mid-lock: a lock file made, its answer lost: the call fails, and the runtime’s next write removes it and lands', async () => {
    const lock = tree.at('.new.txt.kimi-lock');
    const runtime = createRuntime({ workDir: fs.root, approval: yoloApproval(), fs });
    // The first file WriteFile opens is the lock it creates.
    await loseAnswerOf('open', lock.length, { made: true, madeNow: () => existsSync(lock) });
    const failed = await new WriteFile(runtime, {}).call({ path: 'new.txt', content: 'one\n' });
    expect(failed.message).toMatch(
      new RegExp(
        String.raw`^Failed to write to new\.txt\. Error: ECONNRESET: the SSH connection to \S+ was lost \(.+\); ` +
          String.raw`the next call reconnects, open ${quoted('.new.txt.kimi-lock')}$`,
      ),
    );
    expect(await settledNames(tree.workDir)).toEqual(['.new.txt.kimi-lock']);
    const written = await new WriteFile(runtime, {}).call({ path: 'new.txt', content: 'two\n' });
    expect(written.message).toBe('File successfully overwritten. Current size: 4 bytes.');
    expect(await settledNames(tree.workDir)).toEqual(['new.txt']);
  });

  test('mid-commit: a rename cut off leaves the file all old and nothing beside it', async () => {
    const { file, result } = await editDroppingAt('posix-rename@openssh.com', 1);
    expect(result.message).toMatch(lostIn('rename', `${TEMP} -> ${quoted('big.txt')}`));
    expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT);
    expect(await settledNames(tree.workDir)).toEqual(['big.txt']);
  });

  test('mid-commit: a rename made, its answer lost with the connection: the edit stands and the call says so', async () => {
    const file = await tree.write('big.txt', CONTENT);
    const before = statSync(file).ino;
    // The request holds the target's path twice over (the temp file's name is longer).
    await loseAnswerOf('posix-rename@openssh.com', 2 * file.length, {
      made: true,
      madeNow: () => statSync(file).ino !== before,
    });
    const { result } = await editDroppingAt(undefined, 0, file);
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT.replace('MARKER', 'CHANGED'));
    expect(await settledNames(tree.workDir)).toEqual(['big.txt']);
  });

  test('mid-commit: a rename the drop kept from being made never is, even if its server wakes up', async () => {
    const file = await tree.write('big.txt', CONTENT);
    const release = await loseAnswerOf('posix-rename@openssh.com', 2 * file.length, { made: false });
    const { result } = await editDroppingAt(undefined, 0, file);
    // The temp file is removed through the next connection: the rename still waiting in the old server fails then.
    await release();
    expect(result.message).toMatch(lostIn('rename', `${TEMP} -> ${quoted('big.txt')}`));
    expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT);
    expect(await settledNames(tree.workDir)).toEqual(['big.txt']);
  });

  test('mid-commit: when the next connection drops too, the call says the outcome is unknown and where the new content is', async () => {
    const file = await tree.write('big.txt', CONTENT);
    let drops = 0;
    const daemon = Number(
      (await nodeFs.readFile(`/proc/${(await ssh.server.sessionProcesses())[0]}/stat`, 'utf8'))
        .split(') ')[1]!
        .split(' ')[1],
    );
    trap = (request) => {
      // The rename, then the removal of the temp file that would tell whether it was made.
      if (!(request === 'posix-rename@openssh.com' && drops === 0) && !(request === 'remove' && drops === 1))
        return;
      drops++;
      for (const pid of processesBelow(daemon)) process.kill(pid, 'SIGKILL');
    };
    const { result } = await editDroppingAt(undefined, 0, file);
    expect(drops).toBe(2);
    expect(result.message).toMatch(
      new RegExp(
        `${lostIn('rename', `(${TEMP}) -> ${quoted('big.txt')}`).source.slice(0, -1)}; whether ` +
          `${quoted('big.txt')} was replaced is unknown: if it was not, its new content is in (${TEMP})$`,
      ),
    );
    const [, renamed, kept] = /'([^']*)' -> .*its new content is in '([^']*)'$/.exec(result.message) ?? [];
    expect(kept).toBe(renamed);
    // It was not made (the drop came before the request went out): the new content waits in the temp file.
    expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT);
    expect(await nodeFs.readFile(kept!, 'utf8')).toBe(CONTENT.replace('MARKER', 'CHANGED'));
  });

  test('after the commit: the edit stands, and a lock its release lost goes with the next edit of the file', async () => {
    for (const [request, nth] of [
      // The directory's fsync, right after the rename: best effort, the edit is done; the lock's look sent beside it
      // is made again through the next connection.
      ['fsync@openssh.com', 2],
      // The lock file's rename into its grave (the commit's is the first), sent without waiting: its grave removed
      // once the drop is seen, the lock is left behind; it would keep every writer waiting until it went stale, so the
      // runtime's next lock of the file removes it first.
      ['posix-rename@openssh.com', 2],
    ] as const) {
      const { file, result, runtime } = await editDroppingAt(request, nth);
      expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
      expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT.replace('MARKER', 'CHANGED'));
      // Answered after every request sent before it.
      await fs.stat(file);
      await tempNamesGone();
      expect((await nodeFs.readdir(tree.workDir)).sort()).toEqual(
        request === 'fsync@openssh.com' ? ['big.txt'] : ['.big.txt.kimi-lock', 'big.txt'],
      );
      const back = await new StrReplaceFile(runtime, {}).call({
        path: 'big.txt',
        edit: { old: 'CHANGED', new: 'MARKER' },
      });
      expect(back.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
      await fs.stat(file);
      expect(await nodeFs.readdir(tree.workDir)).toEqual(['big.txt']);
    }
  });
  test('after the commit: a lock’s grave whose removal the drop cut off goes with the runtime’s next write of any file', async () => {
    // The lock renamed into its grave, the removal of what it took (`remove`) or of the grave (`rmdir`) is cut off:
    // the grave is left beside the file, with the lock in it or empty.
    for (const request of ['remove', 'rmdir'] as const) {
      const { file, result, runtime } = await editDroppingAt(request, 1);
      expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
      expect(await nodeFs.readFile(file, 'utf8')).toBe(CONTENT.replace('MARKER', 'CHANGED'));
      await fs.stat(file);
      const written = await new WriteFile(runtime, {}).call({ path: 'other.txt', content: 'other\n' });
      expect(written.message).toBe('File successfully overwritten. Current size: 6 bytes.');
      expect(await settledNames(tree.workDir)).toEqual(['big.txt', 'other.txt']);
      await nodeFs.rm(tree.at('other.txt'));
    }
  });
});

/** A commit step that turns `path` from `old\n` into `new\n`. */
const oldToNew = (path: string): CommitStep => ({
  kind: 'write',
  path,
  bytes: Buffer.from('new\n'),
  mode: 0o644,
  previous: { kind: 'file', bytes: Buffer.from('old\n'), mode: 0o644 },
});

describe('a commit of several files whose connection drops at a rename', () => {
  const steps = (a: string, b: string): CommitStep[] => [a, b].map(oldToNew);

  test('a rename made, its answer lost: the commit goes on and every file is new', async () => {
    const [a, b] = [await tree.write('a.txt', 'old\n'), await tree.write('b.txt', 'old\n')];
    const before = statSync(a).ino;
    await loseAnswerOf('posix-rename@openssh.com', 2 * a.length, {
      made: true,
      madeNow: () => statSync(a).ino !== before,
    });
    await commitFileSet(fs, steps(a, b));
    expect([await nodeFs.readFile(a, 'utf8'), await nodeFs.readFile(b, 'utf8')]).toEqual(['new\n', 'new\n']);
    expect((await nodeFs.readdir(tree.workDir)).sort()).toEqual(['a.txt', 'b.txt']);
  });

  test('a rename whose outcome cannot be told is undone like one made: every file is old again', async () => {
    const [a, b] = [await tree.write('a.txt', 'old\n'), await tree.write('b.txt', 'old\n')];
    const daemon = Number(
      (await nodeFs.readFile(`/proc/${(await ssh.server.sessionProcesses())[0]}/stat`, 'utf8'))
        .split(') ')[1]!
        .split(' ')[1],
    );
    let drops = 0;
    trap = (request) => {
      if (!(request === 'posix-rename@openssh.com' && drops === 0) && !(request === 'remove' && drops === 1))
        return;
      drops++;
      for (const pid of processesBelow(daemon)) process.kill(pid, 'SIGKILL');
    };
    const failed = await commitFileSet(fs, steps(a, b)).catch((error: unknown) => error);
    expect(drops).toBe(2);
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).message).toMatch(/; whether '.*a\.txt' was replaced is unknown: /);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect([await nodeFs.readFile(a, 'utf8'), await nodeFs.readFile(b, 'utf8')]).toEqual(['old\n', 'old\n']);
    expect((await nodeFs.readdir(tree.workDir)).sort()).toEqual(['a.txt', 'b.txt']);
  });
});

describe('a commit of several files whose connection drops at a removal or a temp file’s create', () => {
  test('a removal made, its answer lost: the file removed is put back with the others', async () => {
    const [a, d] = [await tree.write('a.txt', 'old\n'), await tree.write('d.txt', 'kept\n')];
    await loseAnswerOf('remove', d.length, { made: true, madeNow: () => !existsSync(d) });
    const failed = await commitFileSet(fs, [
      oldToNew(a),
      { kind: 'remove', path: d, previous: { kind: 'file', bytes: Buffer.from('kept\n'), mode: 0o644 } },
    ]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect([await nodeFs.readFile(a, 'utf8'), await nodeFs.readFile(d, 'utf8')]).toEqual(['old\n', 'kept\n']);
    expect(await settledNames(tree.workDir)).toEqual(['a.txt', 'd.txt']);
  });

  test('a removal the drop kept from being made never is, even if its server wakes up once the file is put back', async () => {
    const [a, d] = [await tree.write('a.txt', 'old\n'), await tree.write('d.txt', 'kept\n')];
    const release = await loseAnswerOf('remove', d.length, { made: false });
    const failed = await commitFileSet(fs, [
      oldToNew(a),
      { kind: 'remove', path: d, previous: { kind: 'file', bytes: Buffer.from('kept\n'), mode: 0o644 } },
    ]).catch((error: unknown) => error);
    await release();
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect([await nodeFs.readFile(a, 'utf8'), await nodeFs.readFile(d, 'utf8').catch(() => 'gone')]).toEqual([
      'old\n',
      'kept\n',
    ]);
    expect(await settledNames(tree.workDir)).toEqual(['a.txt', 'd.txt']);
  });

  test('a removal’s rename the drop kept from being made never is: its temp directory is gone', async () => {
    const [d, a] = [await tree.write('d.txt', 'kept\n'), await tree.write('a.txt', 'old\n')];
    // The file to remove is renamed into a temp directory beside it first: its rename is the commit's first.
    const release = await loseAnswerOf('posix-rename@openssh.com', 2 * d.length, { made: false });
    const failed = await commitFileSet(fs, [
      { kind: 'remove', path: d, previous: { kind: 'file', bytes: Buffer.from('kept\n'), mode: 0o644 } },
      oldToNew(a),
    ]).catch((error: unknown) => error);
    await release();
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect([await nodeFs.readFile(a, 'utf8'), await nodeFs.readFile(d, 'utf8')]).toEqual(['old\n', 'kept\n']);
    expect(await settledNames(tree.workDir)).toEqual(['a.txt', 'd.txt']);
  });

  test('a temp file made, its answer lost: it is removed with the failed commit', async () => {
    const a = await tree.write('a.txt', 'old\n');
    const temps = () => readdirSync(tree.workDir).filter((name) => name.includes('.kimi-tmp-'));
    await loseAnswerOf('open', a.length, { made: true, madeNow: () => temps().length > 0 });
    const failed = await commitFileSet(fs, [oldToNew(a)]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect(await nodeFs.readFile(a, 'utf8')).toBe('old\n');
    expect(await settledNames(tree.workDir)).toEqual(['a.txt']);
  });

  test('a temp link made, its answer lost: it is removed with the failed commit', async () => {
    // A rewind puts a link back as a link, made under a temp name beside it first.
    const link = tree.at('l');
    const temps = () => readdirSync(tree.workDir).filter((name) => name.includes('.kimi-tmp-'));
    await loseAnswerOf('symlink', link.length, { made: true, madeNow: () => temps().length > 0 });
    const failed = await commitFileSet(fs, [
      { kind: 'symlink', path: link, target: 'a.txt', previous: { kind: 'missing' } },
    ]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect(await settledNames(tree.workDir)).toEqual([]);
  });
});

describe('a lock’s release held in a stopped SFTP server', () => {
  // What lets a lock go, whatever form it takes: its removal, or a rename that takes it away first.
  const LOCK_GOES = ['remove', 'posix-rename@openssh.com'];
  const OTHER_WRITER = '4242\nanother-writers-token\n';

  /** Another writer takes the lock at `lock`: ours broken as abandoned (moved aside and removed), its own created. */
  async function anotherWriterTakes(lock: string): Promise<void> {
    await nodeFs.rm(lock, { force: true });
    await nodeFs.writeFile(lock, OTHER_WRITER, { flag: 'wx' });
  }

  test('one the drop kept from being made never is, even if its server wakes once another writer holds the lock', async () => {
    const file = await tree.write('a.txt', 'x');
    const lock = tree.at('.a.txt.kimi-lock');
    const release = await loseAnswerOf(LOCK_GOES, lock.length, { made: false });
    expect(await withFileLock(fs, file, async () => 'ran')).toBe('ran');
    expect(trap).toBeUndefined();
    await tempNamesGone();
    await anotherWriterTakes(lock);
    await release();
    expect(await nodeFs.readFile(lock, 'utf8').catch(() => 'gone')).toBe(OTHER_WRITER);
    expect(await settledNames(tree.workDir)).toEqual(['.a.txt.kimi-lock', 'a.txt']);
  });

  test('one its stopped server makes late, once another writer broke ours as abandoned and took the lock, leaves that lock', async () => {
    const file = await tree.write('a.txt', 'x');
    const [serving] = await sftpServersAndRelays(ssh.server);
    const { sftp } = serving!;
    trap = (request) => {
      if (!LOCK_GOES.includes(request)) return;
      trap = undefined;
      blockUntil(() => waitsForWork(sftp), 'the SFTP server waits for work');
      process.kill(sftp, 'SIGSTOP');
    };
    const other = await ssh.connect(tree.workDir);
    try {
      expect(await withFileLock(fs, file, async () => 'ran')).toBe('ran');
      expect(trap).toBeUndefined();
      // The other client finds our lock unchanged for staleMs (the least over SFTP), breaks it and takes its own;
      // then our server wakes and serves what it was sent.
      const held = await withFileLock(
        other,
        file,
        async (lock) => {
          process.kill(sftp, 'SIGCONT');
          await fs.stat(tree.workDir);
          await lock.verify();
          return 'still held';
        },
        { staleMs: 3_000, timeoutMs: 10_000 },
      );
      expect(held).toBe('still held');
      await other.stat(tree.workDir);
    } finally {
      process.kill(sftp, 'SIGCONT');
      await other.close();
    }
    expect(await settledNames(tree.workDir)).toEqual(['a.txt']);
  });
});

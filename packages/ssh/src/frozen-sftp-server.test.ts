import { closeSync, constants, openSync, promises as nodeFs, readSync, statSync } from 'node:fs';
import { createRuntime, yoloApproval, type ToolRuntime } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { createTempWorkspace, markRead, type TempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  blockUntil,
  bytesWaitingFor,
  ended,
  sftpServersAndRelays,
  waitsForWork,
} from './__fixtures__/sftp-server-processes.js';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import type { SshFileSystem } from './ssh-file-system.js';

// The host's SFTP server stops answering while SSH stays up: its process is stopped (SIGSTOP) just before a request
// chosen by the test goes out, and sshd, still running, answers the keepalives. Without a bound on the wait for an
// answer, every call on the backend waited forever.
const ssh = useSshServer();
/** Short, so a test is quick; long enough for a loaded machine to answer every request before the freeze. */
const ANSWER_TIMEOUT_MS = 1500;
let tree: TempWorkspace;
let fs: SshFileSystem;
let runtime: ToolRuntime;
let trap: ((request: string) => void) | undefined;
/** The SFTP servers this test stopped, ended after it. */
let frozen: number[];
beforeEach(async () => {
  tree = await createTempWorkspace();
  trap = undefined;
  frozen = [];
  fs = await ssh.connect(tree.workDir, {
    answerTimeoutMs: ANSWER_TIMEOUT_MS,
    onRequest: (request) => trap?.(request),
  });
  runtime = createRuntime({ workDir: fs.root, approval: yoloApproval(), fs });
});
afterEach(async () => {
  for (const pid of frozen) signal(pid, 'SIGKILL');
  await fs.close();
  await tree.cleanup();
});

/**
 * Stops the SFTP server `sftp` once it waits for work: stopped with an answer still to write, it would write it on
 * waking and see sshd gone there.
 */
function stopWhenIdle(sftp: number): void {
  blockUntil(() => waitsForWork(sftp), 'the SFTP server waits for work');
  process.kill(sftp, 'SIGSTOP');
  frozen.push(sftp);
}

/** Stops this connection's SFTP server just before the first request named `name` goes out; its pid. */
async function freezeAt(name: string): Promise<number> {
  const serving = await sftpServersAndRelays(ssh.server);
  expect(serving).toHaveLength(1);
  const { sftp } = serving[0]!;
  trap = (request) => {
    if (request !== name) return;
    trap = undefined;
    stopWhenIdle(sftp);
  };
  return sftp;
}

/**
 * Lets this connection's SFTP server make the first request named `name`, then freezes it with its answer lost: the
 * server is stopped before the request goes out, and sshd once it passed it on (at least `atLeast` bytes wait in the
 * server's input); the server, let go, makes it (`madeNow()`) and writes its answer, which is drained from the pipe to
 * sshd before the server is stopped again and sshd let go, answering keepalives as before.
 */
async function freezeAfterMaking(name: string, atLeast: number, madeNow: () => boolean): Promise<void> {
  const serving = await sftpServersAndRelays(ssh.server);
  expect(serving).toHaveLength(1);
  const { sftp, relay } = serving[0]!;
  trap = (request) => {
    if (request !== name) return;
    trap = undefined;
    stopWhenIdle(sftp);
    // The request is written out by the caller right after this returns.
    queueMicrotask(() => {
      blockUntil(() => bytesWaitingFor(sftp) >= atLeast, `sshd passed the ${name} request on`);
      process.kill(relay, 'SIGSTOP');
      process.kill(sftp, 'SIGCONT');
      blockUntil(() => madeNow() && waitsForWork(sftp), `the SFTP server made the ${name} request`);
      process.kill(sftp, 'SIGSTOP');
      drain(`/proc/${sftp}/fd/1`);
      process.kill(relay, 'SIGCONT');
    });
  };
}

/** Reads away what waits in the pipe `path` names (a process's end of it, through /proc). */
function drain(path: string): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(65_536);
    for (;;) {
      try {
        if (readSync(fd, buffer) === 0) return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return;
        throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** `ECONNRESET: ...` as a call that waited on the frozen server fails, up to the syscall and its paths. */
function silenceOf(): string {
  return (
    `ECONNRESET: the SSH connection to ${ssh.server.username}@127.0.0.1:${ssh.server.port} was lost ` +
    `(the SFTP server answered nothing for ${ANSWER_TIMEOUT_MS} ms); the next call reconnects`
  );
}

/** The names in the workspace, once the connection answered what it was sent before (a lock's removal is not waited for). */
async function settledNames(): Promise<string[]> {
  await fs.stat(tree.workDir);
  return (await nodeFs.readdir(tree.workDir)).sort();
}

test('ReadFile on a frozen SFTP server fails with ECONNRESET, and the next call reads on a new session', async () => {
  const file = await tree.write('a.txt', 'one\ntwo\n');
  const read = new ReadFile(runtime, {});
  const stopped = await freezeAt('read');
  const failed = await read.call({ path: 'a.txt' });
  expect(failed.brief).toBe('Failed to read file');
  expect(failed.message).toBe(`Failed to read a.txt. Error: ${silenceOf()}, read '${file}'`);
  const again = await read.call({ path: 'a.txt' });
  expect(again.message).toBe(
    '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
  );
  const serving = await sftpServersAndRelays(ssh.server);
  expect(serving.filter(({ sftp }) => sftp !== stopped)).toHaveLength(1);
});

test('close waits for a request in flight, and a frozen SFTP server keeps it waiting no longer than the answer timeout', async () => {
  const file = await tree.write('a.txt', 'one\n');
  await freezeAt('remove');
  const removal = fs.unlink(file);
  removal.catch(() => undefined);
  const started = performance.now();
  await fs.close();
  const waited = performance.now() - started;
  // Failed by the silence, not by the close.
  await expect(removal).rejects.toThrow(`${silenceOf()}, unlink '${file}'`);
  expect(waited).toBeLessThan(ANSWER_TIMEOUT_MS + 1000);
});

test('WriteFile whose rename waits on a frozen SFTP server fails, the file all old, and nothing is left beside it', async () => {
  const file = await tree.write('a.txt', 'old\n');
  await markRead(runtime, file);
  const stopped = await freezeAt('posix-rename@openssh.com');
  const failed = await new WriteFile(runtime, {}).call({ path: 'a.txt', content: 'new\n' });
  expect(failed.message).toMatch(
    new RegExp(
      `^Failed to write to a\\.txt\\. Error: ${escaped(silenceOf())}, ` +
        `rename '${escaped(tree.workDir)}/\\.a\\.txt\\.kimi-tmp-[0-9a-f]{12}' -> '${escaped(file)}'$`,
    ),
  );
  expect(await nodeFs.readFile(file, 'utf8')).toBe('old\n');
  expect(await settledNames()).toEqual(['a.txt']);
  // The rename still waits in the stopped server, left running by nobody: woken, it finds its temp file gone, and
  // the file stays old.
  signal(stopped, 'SIGCONT');
  while (!(await ended(stopped))) await new Promise((go) => setTimeout(go, 10));
  expect(await nodeFs.readFile(file, 'utf8')).toBe('old\n');
  expect(await settledNames()).toEqual(['a.txt']);
  const written = await new WriteFile(runtime, {}).call({ path: 'a.txt', content: 'new\n' });
  expect(written.message).toBe('File successfully overwritten. Current size: 4 bytes.');
  expect(await nodeFs.readFile(file, 'utf8')).toBe('new\n');
  expect(await settledNames()).toEqual(['a.txt']);
});

/** Sends `name` to `pid`, unless it has ended already. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

test('WriteFile whose rename was made before the SFTP server froze says it wrote, the file all new, and nothing is left beside it', async () => {
  const file = await tree.write('a.txt', 'old\n');
  await markRead(runtime, file);
  const before = statSync(file).ino;
  // The request holds the target's path twice over (the temp file's name is longer).
  await freezeAfterMaking('posix-rename@openssh.com', 2 * file.length, () => statSync(file).ino !== before);
  const written = await new WriteFile(runtime, {}).call({ path: 'a.txt', content: 'new\n' });
  expect(written.message).toBe('File successfully overwritten. Current size: 4 bytes.');
  expect(await nodeFs.readFile(file, 'utf8')).toBe('new\n');
  expect(await settledNames()).toEqual(['a.txt']);
  const serving = await sftpServersAndRelays(ssh.server);
  expect(serving.filter(({ sftp }) => !frozen.includes(sftp))).toHaveLength(1);
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

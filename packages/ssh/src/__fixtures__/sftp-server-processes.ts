import { execFileSync } from 'node:child_process';
import { promises as nodeFs, readFileSync } from 'node:fs';
import type { SshServer } from '@kimi-tools/test-kit';

/** An SFTP server on the test's host, and the sshd process relaying it to its connection. */
export interface ServingProcesses {
  readonly sftp: number;
  readonly relay: number;
}

/** The pids of the processes serving `server`'s connections open now: each SFTP server and the sshd relaying it. */
export async function sftpServersAndRelays(server: SshServer): Promise<ServingProcesses[]> {
  const found: ServingProcesses[] = [];
  for (const pid of await server.sessionProcesses()) {
    const stat = await nodeFs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (!stat.includes('(sftp-server)')) continue;
    found.push({ sftp: pid, relay: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
  }
  return found;
}

/** Waits, blocking this process (so no answer and no closed connection is seen meanwhile), until `done()`. */
export function blockUntil(done: () => boolean, what: string): void {
  const deadline = Date.now() + 10_000;
  while (!done()) if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`);
}

/** `poll` and `ppoll` on x86-64, `ppoll` on arm64: the system calls a server waiting for work sleeps in. */
const POLL_SYSCALLS = process.arch === 'arm64' ? ['73'] : ['7', '271'];

/**
 * Whether a server sleeps waiting for its next request, with no answer of its own left to write (OpenSSH's SFTP
 * server polls its output too while it has one, and the pipe to sshd takes it at once).
 */
export function waitsForWork(pid: number): boolean {
  const call = readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0] ?? '';
  return POLL_SYSCALLS.includes(call);
}

/** Bytes waiting in the pipe a process reads as its standard input (FIONREAD on another reader of it). */
export function bytesWaitingFor(pid: number): number {
  const script =
    'import fcntl, os, struct, sys, termios\n' +
    'fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)\n' +
    'print(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\\0" * 4))[0])';
  return Number(execFileSync('python3', ['-c', script, `/proc/${pid}/fd/0`], { encoding: 'utf8' }));
}

/** Whether the process `pid` has ended: gone, or a zombie its parent has not reaped yet. */
export async function ended(pid: number): Promise<boolean> {
  const stat = await nodeFs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

import { execFile, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's `openssh-server` puts the daemon and the SFTP server. */
const SSHD = '/usr/sbin/sshd';
const SFTP_SERVER = '/usr/lib/openssh/sftp-server';

/** A host key of the test server, as a client would be told it. */
export interface SshHostKey {
  /** `ed25519` or `rsa`. */
  readonly type: SshHostKeyType;
  /** The public key line (`ssh-ed25519 AAAA... comment`), as in a `.pub` file. */
  readonly line: string;
  /** Its `SHA256:...` fingerprint, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
}

/** A host key type the test server can have. */
export type SshHostKeyType = 'ed25519' | 'rsa';

/** Options of {@link startSshServer}. */
export interface SshServerOptions {
  /** The host keys to generate, in the order the server offers them (default: `['ed25519']`). */
  hostKeyTypes?: readonly SshHostKeyType[];
  /**
   * Whether the server has the SFTP subsystem (default: true), or the command it runs for it instead of OpenSSH's
   * `sftp-server` (a server whose SFTP subsystem never answers, as when the login shell hangs before starting it).
   */
  sftp?: boolean | string;
  /**
   * Whether each session's shell reads the user's start-up files (`~/.bashrc`), as a real host's does (default: false:
   * the programs the tests run stay apart from the runner's own shell set-up; the benchmarks ask for a real host's).
   */
  shellStartupFiles?: boolean;
  /**
   * Shell code each `exec` session runs before the command it was asked for, as a host's start-up files would (the SFTP
   * subsystem starts without it): `'sleep 60'` is a host whose login shell hangs for programs while SFTP serves files.
   * Run through sshd's `ForceCommand`, the command asked for in `SSH_ORIGINAL_COMMAND`.
   */
  execStartup?: string;
}

/** A real OpenSSH server on 127.0.0.1, started for one test file, accepting one user key made for it. */
export interface SshServer {
  readonly host: string;
  readonly port: number;
  /** The user the tests log in as: the one running them (root in CI). */
  readonly username: string;
  /** The user's private key (OpenSSH format, no passphrase), the only one the server accepts. */
  readonly privateKey: string;
  readonly hostKeys: readonly SshHostKey[];
  /** A directory of the server's own (its config, keys and pid file); tests may put files there too. */
  readonly dir: string;
  /** What sshd logged so far (it runs with `-e`). */
  log(): string;
  /** The ids of the processes serving the current connections (each connection's sshd and its sftp-server). */
  sessionProcesses(): Promise<number[]>;
  /**
   * Ends every process serving a connection, as a dropped link or a crashed host would: `sshd` and `sftp-server` by
   * SIGKILL, the programs they run by SIGHUP.
   */
  dropConnections(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts `/usr/sbin/sshd` on 127.0.0.1 and a free port, with a host key and a user key generated for this run, and
 * waits until it accepts connections. A machine without OpenSSH's server fails here, loudly: the SSH tests must never
 * pass by skipping (CI installs `openssh-server`, see `.ci/run`).
 */
export async function startSshServer({
  hostKeyTypes = ['ed25519'],
  sftp = true,
  shellStartupFiles = false,
  execStartup,
}: SshServerOptions = {}): Promise<SshServer> {
  for (const program of [SSHD, SFTP_SERVER]) {
    if (!existsSync(program)) {
      throw new Error(`${program} is missing: install OpenSSH's server (apt-get install -y openssh-server)`);
    }
  }
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-sshd-')));
  const hostKeys: SshHostKey[] = [];
  for (const type of hostKeyTypes) hostKeys.push(await generateKey(path.join(dir, `host_${type}`), type));
  await generateKey(path.join(dir, 'user_key'), 'ed25519');
  await fs.copyFile(path.join(dir, 'user_key.pub'), path.join(dir, 'authorized_keys'));
  const privateKey = await fs.readFile(path.join(dir, 'user_key'), 'utf8');
  const username = os.userInfo().username;
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  const subsystem = sftp === true ? SFTP_SERVER : sftp;
  const startup = path.join(dir, 'exec-startup');
  if (execStartup !== undefined) {
    // The subsystem's command comes here too (`ForceCommand` takes every session): it alone skips the start-up code.
    await fs.writeFile(
      startup,
      [
        '#!/bin/sh',
        ...(subsystem ? [`[ "$SSH_ORIGINAL_COMMAND" = '${subsystem}' ] && exec ${subsystem}`] : []),
        execStartup,
        'exec "$SHELL" -c "$SSH_ORIGINAL_COMMAND"',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
  }
  await fs.writeFile(
    config,
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      ...hostKeyTypes.map((type) => `HostKey ${path.join(dir, `host_${type}`)}`),
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'UseDNS no',
      'PrintMotd no',
      // Sessions run their commands through the user's shell, and bash reads ~/.bashrc for sshd when it is the
      // top-level shell (SHLVL below 1): the test user's own start-up files (on this CI's image, root's pyenv init,
      // whose rehash races between sessions and writes to stderr) must not reach the programs the tests run.
      ...(shellStartupFiles ? [] : ['SetEnv SHLVL=1']),
      ...(subsystem ? [`Subsystem sftp ${subsystem}`] : []),
      ...(execStartup !== undefined ? [`ForceCommand ${startup}`] : []),
      '',
    ].join('\n'),
  );
  // Privilege separation needs its empty directory, which only the package's service unit creates.
  if (process.getuid?.() === 0) await fs.mkdir('/run/sshd', { recursive: true });

  const daemon = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  daemon.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  try {
    await waitUntilAccepting(port, exited, () => output);
  } catch (error) {
    daemon.kill('SIGKILL');
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }

  const sessionProcesses = async () => (daemon.pid === undefined ? [] : descendants(daemon.pid));
  return {
    host: '127.0.0.1',
    port,
    username,
    privateKey,
    hostKeys,
    dir,
    log: () => output,
    sessionProcesses,
    async dropConnections() {
      await endSessionProcesses(await sessionProcesses());
    },
    async stop() {
      await endSessionProcesses(await sessionProcesses());
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGTERM');
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function generateKey(file: string, type: SshHostKeyType): Promise<SshHostKey> {
  await run('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(type === 'rsa' ? ['-b', '2048'] : []),
    '-N',
    '',
    '-C',
    'kimi-tools-test',
    '-f',
    file,
  ]);
  const line = (await fs.readFile(`${file}.pub`, 'utf8')).trim();
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`]);
  const fingerprint = stdout.split(' ')[1] ?? '';
  return { type, line, fingerprint };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the port answers with an SSH banner; rejects with sshd's log when it exits or never answers. */
async function waitUntilAccepting(port: number, exited: Promise<void>, log: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let attempt = 0; attempt < 200; attempt++) {
    if (gone) throw new Error(`sshd exited at start:\n${log()}`);
    if (await answersWithBanner(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not accept connections on 127.0.0.1:${port} within 10 s:\n${log()}`);
}

function answersWithBanner(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('data', (data) => done(data.toString('latin1').startsWith('SSH-')));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** Every process below `pid` (children first found, then theirs), from `/proc`. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8');
      // The parent id is the second field after the command, which is in parentheses and may hold spaces.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), parent);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [child, parent] of parents) {
      if (parent === current) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * Ends a connection's processes as a dropped link or a crashed host ends them: SSH's own (each `sshd` serving it, its
 * `sftp-server`) killed outright, any other (a program run by `exec`, a login shell still reading its start-up files)
 * hung up on, as losing its session does to it. A shell killed outright would skip its exit traps: a start-up file's
 * lock left behind (pyenv's rehash lock, on this CI's image) stalls every later login of the user for a minute.
 */
async function endSessionProcesses(pids: readonly number[]): Promise<void> {
  const names = await Promise.all(
    pids.map((pid) =>
      fs.readFile(`/proc/${pid}/comm`, 'utf8').then(
        (name) => name.trim(),
        () => '',
      ),
    ),
  );
  pids.forEach((pid, index) => {
    killQuietly(pid, names[index] === 'sshd' || names[index] === 'sftp-server' ? 'SIGKILL' : 'SIGHUP');
  });
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

import { PassThrough } from 'node:stream';
import {
  PRINT_START_MARKER,
  StartMarkerStream,
  type ExecOptions,
  type ExecProcess,
} from '@kimi-tools/core/fs';
import type { ClientChannel } from 'ssh2';
import type { SshSession } from './connection.js';
import { errnoError } from './errno-error.js';
import { isShellVariableName, shellQuote } from './shell-quote.js';

/** Exit codes of the start-up script when it could not start the program (never seen once the marker was sent). */
const NO_DIRECTORY = 91;
const NO_PROGRAM = 92;

/** How long a killed program's channel may stay open before it is closed without waiting for the exit status. */
const KILL_GRACE_MS = 2_000;

/**
 * The command line the remote shell runs: the environment, `cd -- <dir>`, a check that the program exists, then
 * core's start marker on standard output (`PRINT_START_MARKER`: the shell's process id) and `exec` of the program
 * with every argument quoted (its standard input `/dev/null` unless piped). The marker tells that the program
 * started, and its process id is what `kill` signals: `exec` keeps the id, and sshd made the shell the leader of its
 * own process group.
 */
export function startScript(command: string, args: readonly string[], options: ExecOptions): string {
  const steps: string[] = [];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    steps.push(value === undefined ? `unset ${name}` : `export ${name}=${shellQuote(value)}`);
  }
  if (options.cwd !== undefined) {
    steps.push(`{ cd -- ${shellQuote(options.cwd)} || exit ${NO_DIRECTORY}; } 2>/dev/null`);
  }
  steps.push(`command -v -- ${shellQuote(command)} >/dev/null 2>&1 || exit ${NO_PROGRAM}`);
  steps.push(PRINT_START_MARKER);
  // Without `stdin: 'pipe'`, standard input is closed as a local program's is (`/dev/null`), not the channel: a
  // program such as ripgrep reads a piped standard input when it is given no path.
  const input = options.stdin === 'pipe' ? '' : ' </dev/null';
  steps.push(`exec ${[command, ...args].map(shellQuote).join(' ')}${input}`);
  return steps.join('; ');
}

/** Runs `command` on the host through an SSH `exec` channel of the shared connection. */
export function remoteExec(
  session: () => Promise<SshSession>,
  command: string,
  args: readonly string[],
  options: ExecOptions = {},
): ExecProcess {
  const stdin = options.stdin === 'pipe' ? new PassThrough() : null;
  const stdout = new StartMarkerStream();
  const stderr = new PassThrough();
  let killed = false;
  let kill = () => {
    killed = true;
  };
  let abandon = () => {};
  const abandoned = new Promise<void>((resolve) => (abandon = resolve));

  const exit = (async () => {
    try {
      const invalid = Object.keys(options.env ?? {}).find((name) => !isShellVariableName(name));
      if (invalid !== undefined) {
        throw errnoError(
          'EINVAL',
          'spawn',
          [command],
          `${JSON.stringify(invalid)} cannot be an environment variable`,
        );
      }
      const live = await session();
      if (killed) return { code: null, signal: 'SIGKILL' };
      const channel = await openExec(live, startScript(command, args, options), command);
      // Killed while the channel was opening: the program may be starting, so it is killed all the same.
      if (killed) killProgram(live, channel, stdout, abandon);
      kill = () => {
        if (killed) return;
        killed = true;
        killProgram(live, channel, stdout, abandon);
      };
      return await runToExit(live, channel, { stdin, stdout, stderr }, command, {
        killed: () => killed,
        abandoned,
      });
    } finally {
      stdout.end();
      stderr.end();
    }
  })();

  return {
    stdin,
    stdout,
    stderr,
    exit,
    started: stdout.started,
    kill: () => kill(),
    // The shell's id, which `exec` kept for the program: known from the start marker on.
    get pid() {
      return stdout.pid;
    },
  };
}

/** Opens the channel, waiting for one of ours to close when the server refuses one more. */
async function openExec(session: SshSession, script: string, command: string): Promise<ClientChannel> {
  const channels = session.execChannels;
  for (;;) {
    if (!session.alive) throw errnoError('ECONNRESET', 'spawn', [command], session.lost().message);
    channels.asked();
    const opened = await new Promise<ClientChannel | Error>((resolve) =>
      session.client.exec(script, (error, channel) => resolve(error ?? channel)),
    );
    if (!(opened instanceof Error)) {
      opened.once('close', () => channels.closed());
      return opened;
    }
    channels.refused();
    if (!session.alive) throw errnoError('ECONNRESET', 'spawn', [command], session.lost().message);
    const slot = channels.slot();
    if (!slot) {
      throw errnoError('EAGAIN', 'spawn', [command], `the host refused a channel for it (${opened.message})`);
    }
    await slot;
  }
}

interface Streams {
  stdin: PassThrough | null;
  stdout: StartMarkerStream;
  stderr: PassThrough;
}

/** Whether the program was killed, and a promise that settles when the caller stops waiting for its channel. */
interface Ending {
  killed(): boolean;
  abandoned: Promise<void>;
}

function runToExit(
  session: SshSession,
  channel: ClientChannel,
  { stdin, stdout, stderr }: Streams,
  command: string,
  { killed, abandoned }: Ending,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    void abandoned.then(() => resolve({ code: null, signal: 'SIGKILL' }));
    let status: { code: number | null; signal: string | null } | undefined;
    channel.on('exit', (code: number | null, signal?: string) => {
      status = { code: code ?? null, signal: signal ?? null };
    });
    channel.pipe(stdout, { end: false });
    channel.stderr.pipe(stderr, { end: false });
    if (stdin) stdin.pipe(channel);
    else channel.end();
    channel.once('close', (code?: number | null, signal?: string) => {
      // ssh2 gives the exit status with `close` too: a program that ended at once may have had its status arrive in
      // the same read as its channel's confirmation, before the `exit` listener above was there. Without it, a
      // program that ran was reported missing.
      if (!status && code !== undefined) status = { code, signal: signal ?? null };
      if (status && stdout.hasStarted) resolve(status);
      else if (killed()) resolve({ code: null, signal: 'SIGKILL' });
      else if (!session.alive) reject(errnoError('ECONNRESET', 'spawn', [command], session.lost().message));
      else if (status?.code === NO_DIRECTORY) {
        reject(errnoError('ENOENT', 'spawn', [command], 'no such working directory on the host'));
      } else reject(errnoError('ENOENT', 'spawn', [command], 'no such program on the host'));
    });
  });
}

/**
 * Ends the program: the `signal` request first (OpenSSH refuses it to root logins, which run without privilege
 * separation), then `kill -KILL` of its process group over a second channel; after a grace period, the channel is
 * closed and no longer waited for.
 */
function killProgram(
  session: SshSession,
  channel: ClientChannel,
  stdout: StartMarkerStream,
  abandon: () => void,
): void {
  try {
    channel.signal('KILL');
  } catch {
    // The channel is already closing.
  }
  void stdout.started.then((started) => {
    const pid = stdout.pid;
    if (!started || pid === undefined || !session.alive) return;
    session.client.exec(`kill -s KILL -- -${pid} 2>/dev/null || kill -s KILL ${pid}`, (error, killer) => {
      if (error) return;
      killer.resume();
      killer.stderr.resume();
    });
  });
  // If the program outlives that (a host where `kill` fails), the channel is let go: sshd keeps it open while the
  // program runs, and the caller must not wait for it.
  const timer = setTimeout(() => {
    channel.close();
    abandon();
  }, KILL_GRACE_MS);
  timer.unref();
  channel.once('close', () => clearTimeout(timer));
}

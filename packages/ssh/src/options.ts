import os from 'node:os';
import path from 'node:path';
import type { ConnectionSettings } from './connection.js';
import { parseExpectedHostKeys } from './host-key.js';
import { sshError } from './ssh-error.js';

/** Options of {@link sshFileSystem}. */
export interface SshFileSystemOptions {
  /** Host name or address of the SSH server. */
  host: string;
  /** Its port (default 22). */
  port?: number;
  /** The user to log in as. */
  username: string;
  /** A private key (OpenSSH or PEM text, or its bytes) to log in with; or give `agent`. */
  privateKey?: string | Buffer;
  /** The passphrase of an encrypted `privateKey`. */
  passphrase?: string;
  /** The socket of an SSH agent to log in through, e.g. `process.env.SSH_AUTH_SOCK`. */
  agent?: string;
  /** The workspace on the host: an absolute path of an existing directory (checked when connecting). */
  root: string;
  /**
   * The host's key: its public key line (`ssh-ed25519 AAAA...`, as in its `.pub` file) or its `SHA256:` fingerprint,
   * or several. When given, known_hosts is not read; any other key is refused.
   */
  hostKey?: string | readonly string[];
  /** The known_hosts files that decide the host key when `hostKey` is not given (default `~/.ssh/known_hosts`). */
  knownHostsFiles?: readonly string[];
  /**
   * How long connecting and the SSH handshake may take, in milliseconds, then again the start of the host's SFTP
   * server, and the start of a line scan on the host (one not started by then is not waited for: the file is read
   * over SFTP) (default 20,000).
   */
  connectTimeoutMs?: number;
  /**
   * How often the connection is checked with SSH keepalives, in milliseconds (default 15,000; 0 turns them off).
   * Three unanswered ones in a row drop it, and calls in flight fail with `ECONNRESET` instead of waiting forever.
   */
  keepaliveIntervalMs?: number;
  /**
   * How long the host's SFTP server may answer nothing while requests wait for their answers, in milliseconds
   * (default 60,000). The clock starts again with every answer, so a slow link or a long queue of reads never runs
   * it out. When it does (the server's process stopped, a file system that hangs it, while SSH keepalives are still
   * answered), every waiting request and every later one of that session fails with `ECONNRESET`, the connection is
   * ended, and the next call connects again.
   */
  answerTimeoutMs?: number;
  /** Called with the name of every SFTP request sent (`stat`, `open`, `read`...), to count round trips. */
  onRequest?: (request: string) => void;
  /**
   * Called with the name of every SFTP request whose answer arrived (or that failed): with `onRequest`, which
   * requests were sent before the answer of which, that is, the round trips a call waited for.
   */
  onAnswer?: (request: string) => void;
  /**
   * The host's Python 3 (default `python3`, looked up on the host's `PATH`; `null`: none): where it runs, a large
   * file's lines are counted on the host rather than carried over the link (`hostScanMinBytes`). Without it, the files
   * are read over SFTP.
   */
  python?: string | null;
  /** Files at least this large are scanned on the host for ReadFile's line index (default 16 MiB). */
  hostScanMinBytes?: number;
}

/** What the backend runs on the host besides the tools' own programs. */
export interface HostProgramSettings {
  readonly python: string | null;
  readonly scanMinBytes: number;
  /** How long a line scan's start may take (`connectTimeoutMs`): the host's login shell, then its Python. */
  readonly startTimeoutMs: number;
}

const DEFAULT_HOST_SCAN_MIN_BYTES = 16 << 20;
const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;

/** Checks and settles {@link SshFileSystemOptions.python} and `hostScanMinBytes`. */
export function hostProgramSettings(options: SshFileSystemOptions): HostProgramSettings {
  const python = options.python === undefined ? 'python3' : options.python;
  const scanMinBytes = options.hostScanMinBytes ?? DEFAULT_HOST_SCAN_MIN_BYTES;
  if (python !== null && (typeof python !== 'string' || python === '')) {
    throw sshError('EINVAL', 'sshFileSystem: python must be a program name or path, or null');
  }
  if (typeof scanMinBytes !== 'number' || Number.isNaN(scanMinBytes) || scanMinBytes < 0) {
    throw sshError('EINVAL', 'sshFileSystem: hostScanMinBytes must be a number of bytes, 0 or more');
  }
  return { python, scanMinBytes, startTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS };
}

const DEFAULT_KEEPALIVE_INTERVAL_MS = 15_000;
/**
 * Between two answers a working server sends at most one of its largest packets (OpenSSH: 255 KiB, a read's) and
 * serves one request: a minute lets a link of 40 kbit/s, or a sync of a large file to a slow disk, through, and is
 * longer than keepalives take to tell a dead link (three of 15 s).
 */
const DEFAULT_ANSWER_TIMEOUT_MS = 60_000;
/** The longest delay a Node timer keeps (a larger one fires at once). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Checks the options and settles their defaults; anything wrong is refused here, before connecting. */
export function connectionSettings(options: SshFileSystemOptions): ConnectionSettings & { root: string } {
  const invalid = (text: string) => sshError('EINVAL', `sshFileSystem: ${text}`);
  const { host, username, port = 22, root, privateKey, passphrase, agent } = options;
  if (typeof host !== 'string' || host === '') throw invalid('host must be a host name or address');
  if (typeof username !== 'string' || username === '') throw invalid('username must be given');
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw invalid(`port ${port} is not a TCP port`);
  if (typeof root !== 'string' || !path.posix.isAbsolute(root)) {
    throw invalid(`root ${JSON.stringify(root)} must be an absolute path on the host`);
  }
  if (privateKey === undefined && agent === undefined)
    throw invalid('give a privateKey or an agent to log in with');
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const keepaliveIntervalMs = options.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS;
  const answerTimeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  // Delays a Node timer keeps (a longer one fires at once); an answer limit of 0 would end every SFTP session at once.
  for (const [name, value, least] of [
    ['connectTimeoutMs', connectTimeoutMs, '0 or more'],
    ['keepaliveIntervalMs', keepaliveIntervalMs, '0 or more'],
    ['answerTimeoutMs', answerTimeoutMs, 'above 0'],
  ] as const) {
    const low = least === 'above 0' ? value > 0 : value >= 0;
    if (typeof value !== 'number' || !(low && value <= LONGEST_TIMER_MS))
      throw invalid(`${name} must be a number of milliseconds, ${least} and at most ${LONGEST_TIMER_MS}`);
  }
  const hostKeys = options.hostKey === undefined ? undefined : [options.hostKey].flat();
  if (hostKeys?.length === 0) throw invalid('hostKey lists no key: leave it out to let known_hosts decide');
  return {
    host,
    port,
    username,
    root,
    ...(privateKey !== undefined ? { privateKey } : {}),
    ...(passphrase !== undefined ? { passphrase } : {}),
    ...(agent !== undefined ? { agent } : {}),
    hostKeys: {
      host,
      port,
      ...(hostKeys ? { expected: parseExpectedHostKeys(hostKeys) } : {}),
      knownHostsFiles: options.knownHostsFiles ?? [path.join(os.homedir(), '.ssh', 'known_hosts')],
    },
    readyTimeoutMs: connectTimeoutMs,
    keepaliveIntervalMs,
    answerTimeoutMs,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}),
  };
}

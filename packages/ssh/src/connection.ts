import { Client, type ClientErrorExtensions, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { ExecChannels } from './exec-channels.js';
import { hostKeyCheck, type HostKeyRules } from './host-key.js';
import { SftpSession } from './sftp-session.js';
import { sshError } from './ssh-error.js';

/** Where and how to connect: the options of `sshFileSystem`, checked. */
export interface ConnectionSettings {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly privateKey?: string | Buffer;
  readonly passphrase?: string;
  readonly agent?: string;
  readonly hostKeys: HostKeyRules;
  readonly readyTimeoutMs: number;
  readonly keepaliveIntervalMs: number;
  readonly answerTimeoutMs: number;
  readonly onRequest?: (request: string) => void;
  readonly onAnswer?: (request: string) => void;
}

/** A request the connection took down with it; the file-system layer reports it as `ECONNRESET`. */
export class ConnectionLost extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`the SSH connection to ${target} was lost (${reason}); the next call reconnects`);
  }
}

/** One live SSH connection: its client (for `exec`) and its SFTP session. */
export interface SshSession {
  readonly client: Client;
  readonly sftp: SftpSession;
  readonly execChannels: ExecChannels;
  readonly alive: boolean;
  lost(): ConnectionLost;
  /** Closes the connection and waits until it is closed. */
  end(): Promise<void>;
}

/** The host key algorithms ssh2 can verify: a known_hosts key of another type is not asked for. */
const SUPPORTED_HOST_KEY_ALGORITHMS = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
  'ssh-dss',
]);

/**
 * One SSH connection shared by every call: made on the first call that needs it, and again on the first call after
 * it was lost (a call in flight when it drops fails with `ECONNRESET`: it is never sent twice).
 */
export class SshConnection {
  /** `user@host:port`, for messages. */
  readonly target: string;
  #current: Promise<SshSession> | undefined;

  constructor(private readonly settings: ConnectionSettings) {
    this.target = `${settings.username}@${settings.host}:${settings.port}`;
  }

  /** The live session, connecting first when there is none. */
  session(): Promise<SshSession> {
    if (!this.#current) {
      const attempt: Promise<SshSession> = openSession(this.settings, this.target, () =>
        this.#forget(attempt),
      );
      this.#current = attempt;
      attempt.catch(() => this.#forget(attempt));
    }
    return this.#current;
  }

  /** Closes the connection, if there is one; the next call connects again. */
  async close(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    const session = await current?.catch(() => undefined);
    await session?.end();
  }

  #forget(attempt: Promise<SshSession>): void {
    if (this.#current === attempt) this.#current = undefined;
  }
}

async function openSession(
  settings: ConnectionSettings,
  target: string,
  gone: () => void,
): Promise<SshSession> {
  const check = await hostKeyCheck(settings.hostKeys);
  const client = new Client();
  let refusal: Error | undefined;
  let alive = true;
  let reason = 'the server closed it';
  // ssh2 emits an error before closing (a reset socket, a keepalive timeout, a failed handshake); without a listener
  // at every moment, one would crash the host. It only says why.
  client.on('error', (error) => (reason = error.message));
  const preferred = check.preferredAlgorithms.filter((name) => SUPPORTED_HOST_KEY_ALGORITHMS.has(name));
  const config: ConnectConfig = {
    host: settings.host,
    port: settings.port,
    username: settings.username,
    ...(settings.privateKey !== undefined ? { privateKey: settings.privateKey } : {}),
    ...(settings.passphrase !== undefined ? { passphrase: settings.passphrase } : {}),
    ...(settings.agent !== undefined ? { agent: settings.agent } : {}),
    readyTimeout: settings.readyTimeoutMs,
    keepaliveInterval: settings.keepaliveIntervalMs,
    keepaliveCountMax: 3,
    // Ask first for the key types known for the host, as OpenSSH does: a server offering another type first would
    // otherwise be refused as unknown.
    ...(preferred.length > 0
      ? { algorithms: { serverHostKey: { remove: preferred, prepend: preferred } as never } }
      : {}),
    hostVerifier: (key: Buffer) => {
      refusal = check.judge(key);
      return refusal === undefined;
    },
  };

  await new Promise<void>((resolve, reject) => {
    const fail = (error?: Error & ClientErrorExtensions) => {
      client.removeListener('ready', ready);
      client.removeListener('error', fail);
      client.removeListener('close', closed);
      reject(refusal ?? connectError(error, target, settings.readyTimeoutMs));
    };
    const closed = () => fail();
    const ready = () => {
      client.removeListener('error', fail);
      client.removeListener('close', closed);
      resolve();
    };
    client.once('ready', ready);
    client.once('error', fail);
    client.once('close', closed);
    try {
      client.connect(config);
      // Every SFTP request is a small write waiting for its answer: Nagle's algorithm would hold each back until the
      // previous one is acknowledged, which the peer's delayed ACK puts off by 40 ms.
      client.setNoDelay(true);
    } catch (error) {
      // ssh2 checks the key (its format, its passphrase) before it connects.
      reject(sshError('EINVAL', `cannot connect to ${target}: ${(error as Error).message}`));
    }
  });

  const lost = () => new ConnectionLost(target, reason);
  const ended = new Promise<void>((resolve) =>
    client.once('close', () => {
      alive = false;
      gone();
      resolve();
    }),
  );
  const end = async () => {
    if (alive) reason = 'close() ended it';
    client.end();
    await ended;
  };

  let sftp: SFTPWrapper;
  try {
    sftp = await startSftp(client, settings.readyTimeoutMs);
  } catch (error) {
    const dropped = !alive;
    await end();
    if (dropped) throw lost();
    if (error instanceof SftpStartTimeout) {
      throw sshError(
        'ETIMEDOUT',
        `${target} did not start its SFTP server within ${settings.readyTimeoutMs} ms`,
      );
    }
    throw sshError('ENOSYS', `${target} offers no SFTP subsystem (${(error as Error).message})`);
  }
  /** Marks the session gone for `why`, then ends the connection with `close`; once. */
  const sftpGone = (why: string, close: () => void) => {
    if (!alive) return;
    alive = false;
    reason = why;
    gone();
    close();
  };
  // The SFTP server may end while SSH stays up (killed, crashed): the session is then of no use, and the next call
  // connects again. The requests it leaves unanswered tell first, before the channel closes.
  const sftpEnded = () => sftpGone('the SFTP server ended', () => client.end());
  sftp.once('close', sftpEnded);
  // The SFTP server may stop answering while SSH stays up (its process stopped, a file system that hangs it): the
  // keepalives sshd answers never tell. Its session is ended at once, not politely: nothing it holds can be had.
  const sftpSilent = () =>
    sftpGone(`the SFTP server answered nothing for ${settings.answerTimeoutMs} ms`, () => client.destroy());
  return {
    client,
    execChannels: new ExecChannels(),
    sftp: new SftpSession(sftp, {
      alive: () => alive,
      lost,
      ended: sftpEnded,
      answerTimeoutMs: settings.answerTimeoutMs,
      silent: sftpSilent,
      onRequest: settings.onRequest,
      onAnswer: settings.onAnswer,
    }),
    get alive() {
      return alive;
    },
    lost,
    end,
  };
}

/** The SFTP server did not answer its start in time. */
class SftpStartTimeout extends Error {}

/**
 * Opens the SFTP subsystem, within `timeoutMs`: the server starts it through the user's login shell, and a shell
 * that hangs (a start-up file waiting on a lock) leaves the channel open and silent while keepalives are answered,
 * so without a limit every call would wait forever.
 */
function startSftp(client: Client, timeoutMs: number): Promise<SFTPWrapper> {
  return new Promise<SFTPWrapper>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SftpStartTimeout()), timeoutMs);
    client.sftp((error, channel) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(channel);
    });
  });
}

/** A failure before the connection was ready, with a code core can act on and a message naming the host. */
function connectError(error: (Error & ClientErrorExtensions) | undefined, target: string, timeoutMs: number) {
  if (!error) return sshError('ECONNRESET', `${target} closed the connection during the SSH handshake`);
  const code = (error as NodeJS.ErrnoException).code;
  switch (error.level) {
    case 'client-authentication':
      return sshError(
        'ERR_SSH_AUTHENTICATION',
        `${target} refused the authentication (${error.message}): check the username and the key`,
      );
    case 'client-socket':
      return sshError(code ?? 'ECONNREFUSED', `cannot connect to ${target}: ${error.message}`);
    case 'client-timeout':
      return sshError('ETIMEDOUT', `${target} did not complete the SSH handshake within ${timeoutMs} ms`);
    default:
      return /timed out/i.test(error.message)
        ? sshError('ETIMEDOUT', `${target} did not complete the SSH handshake within ${timeoutMs} ms`)
        : sshError('ERR_SSH_HANDSHAKE', `the SSH handshake with ${target} failed: ${error.message}`);
  }
}

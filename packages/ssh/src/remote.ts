import { ConnectionLost, type SshConnection, type SshSession } from './connection.js';
import { errnoError } from './errno-error.js';
import { errnoCodeOf } from './explain-status.js';
import { SftpStatusError, type SftpSession } from './sftp-session.js';

/**
 * Runs the backend's operations on the connection, and turns whatever fails into the errors of the file-system
 * contract: a status of the server into its POSIX `code`, a connection that dropped into `ECONNRESET`. Counts the
 * operations in flight, so that closing lets them end first.
 */
export class Remote {
  #inFlight = 0;
  readonly #whenIdle: (() => void)[] = [];

  /** `closeWaitMs`: how long {@link close} waits at most for the operations in flight. */
  constructor(
    readonly connection: SshConnection,
    private readonly closeWaitMs: number,
  ) {}

  /** Runs `work` on the live session (connecting first when there is none). */
  run<T>(syscall: string, paths: readonly string[], work: (sftp: SftpSession) => Promise<T>): Promise<T> {
    return this.#counted(async () => {
      const session = await this.connection.session();
      return this.on(session.sftp, syscall, paths, work);
    });
  }

  /** Runs `work` on a given session: a handle lives only in the session that opened it. */
  on<T>(
    sftp: SftpSession,
    syscall: string,
    paths: readonly string[],
    work: (sftp: SftpSession) => Promise<T>,
  ): Promise<T> {
    return this.#counted(async () => {
      try {
        return await work(sftp);
      } catch (error) {
        throw await contractError(error, syscall, paths, sftp);
      }
    });
  }

  /**
   * Closes the connection once no operation is in flight, those the operations in flight lead to included (core
   * sends a lock's release and does not wait for it; a failed step of it sends the next), for `closeWaitMs` at most.
   * Cut off, an operation would fail with `ECONNRESET`, and its recovery connect again after the close, keeping the
   * process running for good.
   */
  async close(): Promise<void> {
    let waitedEnough = false;
    let timer: NodeJS.Timeout | undefined;
    const enough = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        waitedEnough = true;
        resolve();
      }, this.closeWaitMs);
    });
    try {
      while (this.#inFlight > 0 && !waitedEnough) {
        await Promise.race([new Promise<void>((resolve) => this.#whenIdle.push(resolve)), enough]);
        // What the operations just ended lead to is asked for within this turn of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      clearTimeout(timer);
    }
    await this.connection.close();
  }

  async #counted<T>(operation: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await operation();
    } finally {
      if (--this.#inFlight === 0) for (const wake of this.#whenIdle.splice(0)) wake();
    }
  }

  /** The session for `exec`, connecting first when there is none. */
  session(): Promise<SshSession> {
    return this.connection.session();
  }
}

/** The error the contract asks for in place of `error`. */
export async function contractError(
  error: unknown,
  syscall: string,
  paths: readonly string[],
  sftp?: SftpSession,
): Promise<unknown> {
  if (error instanceof ConnectionLost) return errnoError('ECONNRESET', syscall, paths, error.message);
  if (!(error instanceof SftpStatusError) || !sftp) return error;
  try {
    return errnoError(await errnoCodeOf(error, syscall, paths, sftp), syscall, paths);
  } catch (probeError) {
    // The connection dropped while the server was asked why.
    return contractError(probeError, syscall, paths);
  }
}

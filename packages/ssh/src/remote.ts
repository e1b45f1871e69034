import { ConnectionLost, type SshConnection, type SshSession } from './connection.js';
import { errnoError } from './errno-error.js';
import { errnoCodeOf } from './explain-status.js';
import { SftpStatusError, type SftpSession } from './sftp-session.js';

/**
 * Runs the backend's operations on the connection, and turns whatever fails into the errors of the file-system
 * contract: a status of the server into its POSIX `code`, a connection that dropped into `ECONNRESET`.
 */
export class Remote {
  constructor(readonly connection: SshConnection) {}

  /** Runs `work` on the live session (connecting first when there is none). */
  async run<T>(
    syscall: string,
    paths: readonly string[],
    work: (sftp: SftpSession) => Promise<T>,
  ): Promise<T> {
    const session = await this.connection.session();
    return this.on(session.sftp, syscall, paths, work);
  }

  /** Runs `work` on a given session: a handle lives only in the session that opened it. */
  async on<T>(
    sftp: SftpSession,
    syscall: string,
    paths: readonly string[],
    work: (sftp: SftpSession) => Promise<T>,
  ): Promise<T> {
    try {
      return await work(sftp);
    } catch (error) {
      throw await contractError(error, syscall, paths, sftp);
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

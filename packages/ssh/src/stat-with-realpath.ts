import type { Attributes } from 'ssh2';
import type { SftpSession } from './sftp-session.js';

/** A stat sent with a `realpath`, and what it may stand for. */
interface Kept {
  readonly sftp: SftpSession;
  /** The session's count of requests that may change a path, once both were sent. */
  readonly changing: number;
  readonly attrs: Promise<Attributes>;
}

/**
 * Resolves paths with a stat of the path sent in the same round trip, for the open for reading that follows a
 * resolution (core resolves a path, checks it against its policy, then opens it): the stat that keeps a FIFO from
 * being opened is then already answered, and the open costs no round trip of its own before it. The server takes the
 * two requests one after the other, so the stat is of the file the realpath found. It stands for the open's own stat
 * only as fresh as that one would be: when the open comes before the event loop turns after the realpath's answer, and
 * the session sent nothing that may change a path in between; otherwise it is dropped, and the open asks its own.
 */
export class StatWithRealpath {
  /** By the canonical path the realpath answered. */
  readonly #kept = new Map<string, Kept>();

  /** The canonical path of `path` (OpenSSH's: a missing last name is resolved too), with its stat kept a moment. */
  async realpath(sftp: SftpSession, path: string): Promise<string> {
    const resolving = sftp.realpath(path);
    const attrs = sftp.stat(path);
    // A path whose last name is missing has no stat: nobody may ask for it then.
    attrs.catch(() => undefined);
    const changing = sftp.changing;
    const canonical = await resolving;
    const kept: Kept = { sftp, changing, attrs };
    this.#kept.set(canonical, kept);
    setImmediate(() => {
      if (this.#kept.get(canonical) === kept) this.#kept.delete(canonical);
    });
    return canonical;
  }

  /** The stat sent with the realpath that answered `path`, when it may stand for a stat of it now (once). */
  take(sftp: SftpSession, path: string): Promise<Attributes> | undefined {
    const kept = this.#kept.get(path);
    this.#kept.delete(path);
    if (kept?.sftp !== sftp || sftp.changing !== kept.changing) return undefined;
    return kept.attrs;
  }
}

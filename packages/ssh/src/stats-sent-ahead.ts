import type { Attributes } from 'ssh2';
import type { SftpSession } from './sftp-session.js';

/** A stat sent ahead of the look that needs it, and what it may stand for. */
interface Kept {
  readonly sftp: SftpSession;
  /** The session's count of requests that may change a path, once it was sent. */
  readonly changing: number;
  readonly attrs: Promise<Attributes>;
}

/**
 * Stats sent in the round trip before the look that needs them. A path is resolved with a stat of it sent along, for
 * the open for reading that follows a resolution (core resolves a path, checks it against its policy, then opens it):
 * the stat that keeps a FIFO from being opened is then already answered, and the open costs no round trip of its own
 * before it. The server takes the requests one after the other, so the stat is of the file the realpath found. The
 * same goes for a stat sent with another request whose answer the caller waits for first (the sync of a directory a
 * file was just renamed into, before core stats that file: {@link keepStat}). A stat stands for the caller's own only
 * as fresh as that one would be: when the caller asks before the event loop turns after its answer, and the session
 * sent nothing that may change a path in between; otherwise it is dropped, and the caller asks its own.
 */
export class StatsSentAhead {
  /** By the path stated (for a resolution, the canonical path the realpath answered). */
  readonly #kept = new Map<string, Kept>();

  /** The canonical path of `path` (OpenSSH's: a missing last name is resolved too), with its stat kept a moment. */
  async realpath(sftp: SftpSession, path: string): Promise<string> {
    const resolving = sftp.realpath(path);
    const attrs = sftp.stat(path);
    // A path whose last name is missing has no stat: nobody may ask for it then.
    attrs.catch(() => undefined);
    const changing = sftp.changing;
    const canonical = await resolving;
    this.#keep(canonical, { sftp, changing, attrs });
    return canonical;
  }

  /**
   * Keeps `attrs`, a stat of `path` just sent on `sftp`, for a look at it that follows once it is answered (a stat
   * sent with the request before it, whose answer the caller waits for first), on the same terms.
   */
  keepStat(sftp: SftpSession, path: string, attrs: Promise<Attributes>): void {
    attrs.catch(() => undefined);
    this.#keep(path, { sftp, changing: sftp.changing, attrs }, attrs);
  }

  /** Keeps `kept` until the event loop turns once `answered` settled. */
  #keep(path: string, kept: Kept, answered: Promise<unknown> = Promise.resolve()) {
    this.#kept.set(path, kept);
    const expire = () =>
      setImmediate(() => {
        if (this.#kept.get(path) === kept) this.#kept.delete(path);
      });
    answered.then(expire, expire);
  }

  /** The stat kept for `path` (sent with its realpath, or by {@link keepStat}), when it may stand for one now (once). */
  take(sftp: SftpSession, path: string): Promise<Attributes> | undefined {
    const kept = this.#kept.get(path);
    this.#kept.delete(path);
    if (kept?.sftp !== sftp || sftp.changing !== kept.changing) return undefined;
    return kept.attrs;
  }
}

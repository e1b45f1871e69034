import { posix } from 'node:path';
import { OpenFlags, type SftpSession } from './sftp-session.js';

/** A directory opened right after a rename into it, and what it may stand for. */
interface Kept {
  readonly sftp: SftpSession;
  readonly handle: Promise<Buffer>;
  /** The path the rename made. */
  readonly renamed: string;
}

/**
 * Opens the directory a rename lands in, in the same round trip as the rename, for the `syncDirectory` that follows a
 * rename over a file (core's atomic write: rename, then make it durable): `fsync@openssh.com` takes a handle, and
 * the open then costs no round trip of its own. The handle is of the directory the server renamed into, opened just
 * after the rename, as the sync's own open would be a moment later. It is kept until the event loop turns after the
 * rename's answer; a sync that does not follow by then finds it closed, and opens its own.
 */
export class DirectoryOpenedWithRename {
  /** By the directory's path, as the rename named it. */
  readonly #kept = new Map<string, Kept>();

  /** Opens the directory of `to`, right after the rename to it just sent on `sftp` (`renaming`). */
  keep(sftp: SftpSession, to: string, renaming: Promise<unknown>): void {
    const directory = posix.dirname(to);
    const handle = sftp.open(directory, OpenFlags.READ);
    // A directory that cannot be opened leaves the sync to open its own, which says why.
    handle.catch(() => undefined);
    const kept: Kept = { sftp, handle, renamed: to };
    this.#drop(this.#kept.get(directory));
    this.#kept.set(directory, kept);
    const release = () =>
      setImmediate(() => {
        if (this.#kept.get(directory) !== kept) return;
        this.#kept.delete(directory);
        this.#drop(kept);
      });
    renaming.then(release, release);
  }

  /** The handle opened with the last rename into `directory` on `sftp`, and that rename's target, if kept (once). */
  take(sftp: SftpSession, directory: string): { handle: Promise<Buffer>; renamed: string } | undefined {
    const kept = this.#kept.get(directory);
    if (kept?.sftp !== sftp) return undefined;
    this.#kept.delete(directory);
    return kept;
  }

  #drop(kept: Kept | undefined) {
    if (!kept) return;
    kept.handle.then(
      (handle) => {
        if (kept.sftp.alive) kept.sftp.close(handle).catch(() => undefined);
      },
      () => undefined,
    );
  }
}

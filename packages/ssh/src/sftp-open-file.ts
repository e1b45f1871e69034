import type { FileStats, OpenFile } from '@kimi-tools/core/fs';
import type { Attributes } from 'ssh2';
import { readPipelined, writePipelined } from './pipelined-io.js';
import type { Remote } from './remote.js';
import type { SftpSession } from './sftp-session.js';
import { toFileStats } from './sftp-stats.js';

/** A byte view of the caller's array, without a copy (ssh2 takes Buffers). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** How an {@link SftpOpenFile} was opened. */
export interface SftpOpenFileOptions {
  /** Written through (its close is awaited: a failure there is a failure of the write). */
  readonly writable: boolean;
  /** An `fstat` sent as soon as the file was opened, answered while the caller gets to asking for it. */
  readonly firstStat?: Promise<Attributes>;
}

/** A file open in one SFTP session; every operation fails with `ECONNRESET` once that session is lost. */
export class SftpOpenFile implements OpenFile {
  /**
   * Where the last read came back short at the size `stat()` gave: the end of the file, so a read from there returns 0
   * without asking. A short read before that size (a FUSE file system may give one) proves nothing and is not kept.
   */
  #knownEnd: number | undefined;
  #size: number | undefined;
  #firstStat: Promise<Attributes> | undefined;
  #closed = false;

  constructor(
    private readonly remote: Remote,
    private readonly sftp: SftpSession,
    private readonly handle: Buffer,
    private readonly path: string,
    private readonly options: SftpOpenFileOptions,
  ) {
    this.#firstStat = options.firstStat;
    // Nobody may ask for it; its failure must not go unhandled then.
    this.#firstStat?.catch(() => undefined);
  }

  async read(buffer: Uint8Array, offset: number, length: number, position: number) {
    if (length === 0) return { bytesRead: 0 };
    if (this.#knownEnd === position) {
      this.#knownEnd = undefined;
      return { bytesRead: 0 };
    }
    const bytesRead = await this.#on('read', (sftp) =>
      readPipelined(sftp, this.handle, asBuffer(buffer), offset, length, position),
    );
    const end = position + bytesRead;
    this.#knownEnd = bytesRead < length && this.#size !== undefined && end >= this.#size ? end : undefined;
    return { bytesRead };
  }

  async write(buffer: Uint8Array, offset: number, length: number, position: number) {
    this.#changed();
    if (length > 0) {
      await this.#on('write', (sftp) =>
        writePipelined(sftp, this.handle, asBuffer(buffer), offset, length, position),
      );
    }
    return { bytesWritten: length };
  }

  async stat(): Promise<FileStats> {
    const first = this.#firstStat;
    this.#firstStat = undefined;
    const stats = toFileStats(await this.#on('fstat', (sftp) => first ?? sftp.fstat(this.handle)));
    this.#size = stats.size;
    return stats;
  }

  truncate(length: number) {
    this.#changed();
    return this.#on('ftruncate', (sftp) => sftp.fsetstat(this.handle, { size: length }));
  }

  async sync() {
    if (!this.sftp.extensions.has('fsync@openssh.com')) return;
    await this.#on('fsync', (sftp) => sftp.fsync(this.handle));
  }

  chmod(mode: number) {
    this.#changed();
    return this.#on('fchmod', (sftp) => sftp.fsetstat(this.handle, { mode: mode & 0o7777 }));
  }

  chown(uid: number, gid: number) {
    this.#changed();
    return this.#on('fchown', (sftp) => sftp.fsetstat(this.handle, { uid, gid }));
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    // The server released every handle of a session that ended: there is nothing left to close.
    if (!this.sftp.alive) return;
    const closing = this.#on('close', (sftp) => sftp.close(this.handle));
    // Closing a file only read from cannot fail in a way that matters; the server answers it in order, so nothing
    // sent later can see the file open. Not waiting saves a round trip on every read.
    if (this.options.writable) await closing;
    else closing.catch(() => undefined);
  }

  /** What this handle changed makes the eager stat and the known end stale. */
  #changed() {
    this.#knownEnd = undefined;
    this.#size = undefined;
    this.#firstStat = undefined;
  }

  #on<T>(syscall: string, work: (sftp: SftpSession) => Promise<T>) {
    return this.remote.on(this.sftp, syscall, [this.path], work);
  }
}

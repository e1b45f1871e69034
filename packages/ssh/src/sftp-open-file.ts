import type { FileStats, OpenFile, StoredLineScanRequest } from '@kimi-tools/core/fs';
import type { Attributes } from 'ssh2';
import { readPipelined, writePipelined, writtenInOneBurst } from './pipelined-io.js';
import type { HostPython } from './host-line-scan.js';
import type { Remote } from './remote.js';
import type { SftpSession } from './sftp-session.js';
import { toFileStats } from './sftp-stats.js';

/** A byte view of the caller's array, without a copy (ssh2 takes Buffers). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * How many reads of the server's largest size a file opened for reading may take to be read whole as it is opened
 * (2 MiB with OpenSSH): in one round trip, as its stats alone would take. The tools read whole what they open over SFTP
 * (its stamps always carry the content hash); a caller that wants only the head of a larger file is not made to wait
 * for megabytes.
 */
const READ_AHEAD_PARTS = 8;

/** Whether a file of `size` bytes (as a stat gave it) is read whole as it is opened ({@link readStart}). */
export function readsAhead(sftp: SftpSession, size: number): boolean {
  return size < READ_AHEAD_PARTS * sftp.maxRead;
}

/** The first bytes of a file, read as soon as it was opened. */
export interface ReadAhead {
  readonly bytes: Buffer;
  /** Whether the file ended right after them. */
  readonly atEnd: boolean;
}

/**
 * Reads a whole file of `size` bytes (as a stat gave it; see {@link readsAhead}) in one round trip, asking one
 * byte more to see it end. Only a read ending exactly at `size` is its end: a shorter one may be a file system that
 * reads short mid-file (FUSE), a longer one a file that grew.
 */
export async function readStart(sftp: SftpSession, handle: Buffer, size: number): Promise<ReadAhead> {
  const bytes = Buffer.allocUnsafe(size + 1);
  const bytesRead = await readPipelined(sftp, handle, bytes, 0, size + 1, 0);
  return { bytes: bytes.subarray(0, bytesRead), atEnd: bytesRead === size };
}

/**
 * The stats of a file opened after a stat of its path gave `attrs`, and read ahead from its start: those `attrs` when
 * the read ended exactly at their size, with no `fstat` sent (the file has that size now, and its content, not SFTP's
 * whole-second time, tells its versions apart: a rewrite to the same size in between is in the bytes read and their
 * hash). Otherwise it changed since the stat, or the read failed (a directory put there): the open file's own stats;
 * a read that failed with the connection is that failure.
 */
export async function statConfirmedBy(
  sftp: SftpSession,
  handle: Buffer,
  readAhead: Promise<ReadAhead>,
  attrs: Attributes,
): Promise<Attributes> {
  let failure: unknown;
  const early = await readAhead.catch((error: unknown) => void (failure = error));
  if (early?.atEnd) return attrs;
  if (failure !== undefined && !sftp.alive) throw failure;
  return sftp.fstat(handle);
}

/** How an {@link SftpOpenFile} was opened. */
export interface SftpOpenFileOptions {
  /**
   * Opened for writing: its writes, mode and owner changes and fsync are sent without waiting for their answers (write
   * behind), and `sync()` or `close()` waits for them and reports the first failure.
   */
  readonly writable: boolean;
  /**
   * The stats of the file as it was opened, asked as soon as it was (an `fstat`, or the stat before the open that
   * `readAhead` confirmed: {@link statConfirmedBy}), answered while the caller gets to asking for them.
   */
  readonly firstStat?: Promise<Attributes>;
  /**
   * A read of the file from its start, sent as soon as it was opened (a file read for the tools: its whole content in
   * one round trip); reads within it are answered from it.
   */
  readonly readAhead?: Promise<ReadAhead>;
  /** The host's Python, to scan a large file's lines where it is (a file opened for reading only). */
  readonly hostPython?: HostPython;
}

/** A file open in one SFTP session; every operation fails with `ECONNRESET` once that session is lost. */
export class SftpOpenFile implements OpenFile {
  /**
   * Where the last read came back short at the size `stat()` gave: the end of the file, so a read from there returns 0
   * without asking. A short read before that size (a FUSE file system may give one) proves nothing and is not kept.
   */
  #knownEnd: number | undefined;
  #size: number | undefined;
  /** The last `fstat` answer, given again to a `stat()` that follows it with no read or change in between. */
  #lastStat: Promise<Attributes> | undefined;
  #readAhead: Promise<ReadAhead> | undefined;
  /** The stats the file was opened with: the version a scan on the host must have found. */
  readonly #openedStat: Promise<Attributes> | undefined;
  #closed = false;
  /** How many times a mode refused with its owner was set again alone (see `setModeAndOwner`). */
  #resent = 0;
  /**
   * The requests sent on a writable handle whose answers nobody has waited for yet (writes, mode and owner, fsync):
   * the server answers a session's requests in the order they were sent, so what is sent after them sees them done,
   * and the next `sync()`, `close()`, `stat()` or read waits for them and throws the first failure.
   */
  #behind: { syscall: string; sent: Promise<unknown> }[] = [];
  /** Whether something was changed through this handle since its last successful `sync()` (or its open). */
  #unsynced = false;

  constructor(
    private readonly remote: Remote,
    private readonly sftp: SftpSession,
    private readonly handle: Buffer,
    private readonly path: string,
    private readonly options: SftpOpenFileOptions,
  ) {
    this.#lastStat = options.firstStat;
    this.#openedStat = options.firstStat;
    this.#readAhead = options.readAhead;
    // Nobody may ask for them; their failure must not go unhandled then.
    this.#lastStat?.catch(() => undefined);
    this.#readAhead?.catch(() => undefined);
  }

  async read(buffer: Uint8Array, offset: number, length: number, position: number) {
    await this.#caughtUp();
    if (length === 0) return { bytesRead: 0 };
    const early = await this.#fromReadAhead(asBuffer(buffer), offset, length, position);
    if (early !== undefined) return { bytesRead: early };
    if (this.#knownEnd === position) {
      this.#knownEnd = undefined;
      return { bytesRead: 0 };
    }
    // What the server says from now on may differ from the stats already given.
    this.#lastStat = undefined;
    const bytesRead = await this.#on('read', (sftp) =>
      readPipelined(sftp, this.handle, asBuffer(buffer), offset, length, position),
    );
    const end = position + bytesRead;
    this.#knownEnd = bytesRead < length && this.#size !== undefined && end >= this.#size ? end : undefined;
    return { bytesRead };
  }

  /**
   * A write whose parts all go out at once is sent behind ({@link SftpOpenFileOptions.writable}): its bytes are copied
   * into the packets as they are sent, so the caller may reuse its buffer at once. A larger one is waited for (its
   * later parts are sent as the first ones are answered, from the caller's buffer).
   */
  async write(buffer: Uint8Array, offset: number, length: number, position: number) {
    this.#changed();
    if (length === 0) return { bytesWritten: 0 };
    const work = (sftp: SftpSession) =>
      writePipelined(sftp, this.handle, asBuffer(buffer), offset, length, position);
    if (writtenInOneBurst(this.sftp, length)) this.#sendBehind('write', work);
    else {
      await this.#caughtUp();
      await this.#on('write', work);
    }
    return { bytesWritten: length };
  }

  async stat(): Promise<FileStats> {
    await this.#caughtUp();
    // Nothing was read or changed through this handle since the last answer: asking again could only show what
    // others did since, which a stat taken a moment earlier may miss just as well.
    if (!this.sftp.alive) this.#lastStat = undefined;
    const answer = (this.#lastStat ??= this.sftp.fstat(this.handle));
    try {
      const stats = toFileStats(await this.#on('fstat', () => answer));
      this.#size = stats.size;
      return stats;
    } catch (error) {
      if (this.#lastStat === answer) this.#lastStat = undefined;
      throw error;
    }
  }

  async scanLinesWhereStored(request: StoredLineScanRequest) {
    const python = this.options.hostPython;
    if (!python || !this.#openedStat || !this.sftp.alive) return undefined;
    const opened = toFileStats(await this.#on('fstat', () => this.#openedStat!));
    return python.scanLines(this.path, opened, request);
  }

  async truncate(length: number) {
    await this.#caughtUp();
    this.#changed();
    await this.#on('ftruncate', (sftp) => sftp.fsetstat(this.handle, { size: length }));
  }

  /** Sends the fsync after everything sent before it, and waits for all of them: their first failure is thrown. */
  async sync() {
    const fsync = this.sftp.extensions.has('fsync@openssh.com');
    const resent = this.#resent;
    if (fsync) this.#sendBehind('fsync', (sftp) => sftp.fsync(this.handle));
    await this.#caughtUp();
    // A mode set again after a refused owner came after the fsync: that change is flushed too.
    if (fsync && this.#resent !== resent) await this.#on('fsync', (sftp) => sftp.fsync(this.handle));
    this.#unsynced = false;
  }

  async chmod(mode: number) {
    await this.#caughtUp();
    this.#changed();
    await this.#on('fchmod', (sftp) => sftp.fsetstat(this.handle, { mode: mode & 0o7777 }));
  }

  async chown(uid: number, gid: number) {
    await this.#caughtUp();
    this.#changed();
    await this.#on('fchown', (sftp) => sftp.fsetstat(this.handle, { uid, gid }));
  }

  /** Sent behind, like a write: the next `sync()` or `close()` reports a failure to set the bits. */
  async setModeAndOwner(mode: number, owner: { uid: number; gid: number }) {
    this.#changed();
    const bits = mode & 0o7777;
    this.#sendBehind('fchmod', async (sftp) => {
      try {
        // OpenSSH sets the bits, then the owner, and answers FAILURE if either failed.
        await sftp.fsetstat(this.handle, { mode: bits, uid: owner.uid, gid: owner.gid });
      } catch (error) {
        if (!sftp.alive) throw error;
        // Which of the two failed, SFTP does not say: the bits alone tell (an owner we may not give is not given).
        // The requests sent after the first one may be answered already; a `sync()` flushes this one again.
        this.#resent++;
        await sftp.fsetstat(this.handle, { mode: bits });
      }
    });
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    // The server released every handle of a session that ended: there is nothing left to close, and what was sent
    // behind failed with it.
    if (!this.sftp.alive) {
      await this.#caughtUp();
      return;
    }
    const closing = this.#on('close', (sftp) => sftp.close(this.handle));
    // Closing a file only read from, or one whose every change a `sync()` saw done, cannot fail in a way that
    // matters; the server answers it in order, so nothing sent later can see the file open. Not waiting saves a
    // round trip. A handle with changes not synced waits: a failure there, or of a write sent behind, is the
    // write's.
    if (!this.#unsynced && this.#behind.length === 0) {
      closing.catch(() => undefined);
      return;
    }
    const [behind, closed] = await Promise.allSettled([this.#caughtUp(), closing]);
    if (behind.status === 'rejected') throw behind.reason;
    if (closed.status === 'rejected') throw closed.reason;
  }

  /** Sends a request on a writable handle without waiting for its answer ({@link #behind}). */
  #sendBehind(syscall: string, work: (sftp: SftpSession) => Promise<unknown>) {
    const sent = this.#on(syscall, work);
    sent.catch(() => undefined);
    this.#behind.push({ syscall, sent });
  }

  /**
   * Waits for every request sent behind, and throws the failure that tells most: the first the server answered with
   * (a full disk...), else, the connection having taken them all, a write's: the content is what was lost.
   */
  async #caughtUp() {
    if (this.#behind.length === 0) return;
    const behind = this.#behind;
    this.#behind = [];
    const settled = await Promise.allSettled(behind.map((each) => each.sent));
    const failed = behind
      .map((each, index) => ({ syscall: each.syscall, result: settled[index]! }))
      .filter((each) => each.result.status === 'rejected')
      .map((each) => ({ syscall: each.syscall, reason: (each.result as PromiseRejectedResult).reason }));
    if (failed.length === 0) return;
    const answered = failed.find((each) => (each.reason as NodeJS.ErrnoException).code !== 'ECONNRESET');
    throw (answered ?? failed.find((each) => each.syscall === 'write') ?? failed[0]!).reason;
  }

  /** What this handle changed makes the stats, the read-ahead and the known end stale. */
  #changed() {
    this.#unsynced = true;
    this.#knownEnd = undefined;
    this.#size = undefined;
    this.#lastStat = undefined;
    this.#readAhead = undefined;
  }

  /**
   * The bytes of a read the read-ahead holds (all of them, or up to the end it found), or `undefined` when the
   * server must be asked: the read-ahead failed, or the read goes past what it holds of a file it did not see end.
   */
  async #fromReadAhead(buffer: Buffer, offset: number, length: number, position: number) {
    // A handle dies with its session, whatever it holds.
    if (!this.sftp.alive) return undefined;
    const early = await this.#readAhead?.catch(() => undefined);
    if (early === undefined) return undefined;
    const { bytes, atEnd } = early;
    if (position + length > bytes.length && !atEnd) return undefined;
    const copied = Math.max(0, Math.min(length, bytes.length - position));
    if (copied > 0) bytes.copy(buffer, offset, position, position + copied);
    return copied;
  }

  #on<T>(syscall: string, work: (sftp: SftpSession) => Promise<T>) {
    return this.remote.on(this.sftp, syscall, [this.path], work);
  }
}

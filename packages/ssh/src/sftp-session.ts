import type { Attributes, InputAttributes, SFTPWrapper } from 'ssh2';
import { AnswerDeadline } from './answer-deadline.js';

/** SFTP v3 status codes (draft-ietf-secsh-filexfer-02 §7) that the backend tells apart. */
export const SftpStatus = {
  EOF: 1,
  NO_SUCH_FILE: 2,
  PERMISSION_DENIED: 3,
  FAILURE: 4,
  BAD_MESSAGE: 5,
  OP_UNSUPPORTED: 8,
} as const;

/** SFTP v3 open flags (`SSH_FXF_*`). */
export const OpenFlags = { READ: 0x01, WRITE: 0x02, CREAT: 0x08, EXCL: 0x20 } as const;

/** A status the SFTP server answered a request with; the file-system layer turns it into a POSIX `code`. */
export class SftpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One entry of a directory listing: its name and the `lstat` attributes the server sent with it. */
export interface SftpEntry {
  readonly filename: string;
  readonly attrs: Attributes;
}

/** What the session needs of its connection. */
export interface SessionState {
  alive(): boolean;
  /** The error a request gets when the connection or the SFTP channel is gone. */
  lost(): Error;
  /** Marks the session gone: a request was left unanswered because the channel ended. */
  ended(): void;
  /** How long the server may answer nothing while requests wait (`answerTimeoutMs`). */
  readonly answerTimeoutMs: number;
  /** Marks the session gone, and ends it: the server answered nothing for `answerTimeoutMs` while requests waited. */
  silent(): void;
  onRequest?: ((request: string) => void) | undefined;
  onAnswer?: ((request: string) => void) | undefined;
}

/** What ssh2 learns when the SFTP session starts (the server's VERSION packet and `limits@openssh.com`). */
interface SftpInternals {
  _extensions?: Record<string, string>;
  _maxReadLen?: number;
  _maxWriteLen?: number;
}

/** The requests that only look: they change nothing any path names. */
const LOOKING: ReadonlySet<string> = new Set([
  'stat',
  'lstat',
  'fstat',
  'realpath',
  'readlink',
  'read',
  'opendir',
  'readdir',
  'close',
  'statvfs@openssh.com',
]);

/** ssh2's default read and write size for a server that states no limits (a 34,000-byte packet less its header). */
const DEFAULT_DATA_LENGTH = 32_000;

/**
 * The SFTP requests of one live session, as promises. Every request and every answer is counted (`onRequest`,
 * `onAnswer`), none is sent once the session is lost, and a request the connection took down with it rejects with the
 * session's `lost()` error. So does every request waiting when the server answered nothing for `answerTimeoutMs`: the
 * session is then ended, and the next call starts another.
 */
export class SftpSession {
  /** The extensions the server announced (`posix-rename@openssh.com`, `fsync@openssh.com`...). */
  readonly extensions: ReadonlySet<string>;
  /** The largest read and write the server serves in one request (OpenSSH: 261,120 bytes, `limits@openssh.com`). */
  readonly maxRead: number;
  readonly maxWrite: number;
  #changing = 0;
  /** The requests that may change a path (see {@link changing}) sent and not answered yet. */
  readonly #unansweredChanges = new Set<Promise<unknown>>();
  /** How each request waiting for its answer is failed when the server went silent. */
  readonly #waiting = new Set<() => void>();
  readonly #deadline: AnswerDeadline;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly connection: SessionState,
  ) {
    // ssh2 keeps these on the session without a public accessor (it uses them to split reads and writes itself).
    const internals = sftp as unknown as SftpInternals;
    this.extensions = new Set(Object.keys(internals._extensions ?? {}));
    this.maxRead = internals._maxReadLen ?? DEFAULT_DATA_LENGTH;
    this.maxWrite = internals._maxWriteLen ?? DEFAULT_DATA_LENGTH;
    this.#deadline = new AnswerDeadline(connection.answerTimeoutMs, () => {
      // Gone first, so each request fails with the reason, and none is sent on this session any more.
      connection.silent();
      for (const fail of [...this.#waiting]) fail();
    });
  }

  get alive(): boolean {
    return this.connection.alive();
  }

  /**
   * How many requests that may change what a path names (anything but looking: a rename, a removal, an open that may
   * create...) were sent on this session so far: whether this session changed anything between two moments.
   */
  get changing(): number {
    return this.#changing;
  }

  /**
   * Settles once every request that may change a path sent so far is answered (or lost with the session): a program
   * on the host (an exec channel, not this session) then sees what they changed. Looks are not waited for.
   */
  async changesAnswered(): Promise<void> {
    if (this.#unansweredChanges.size > 0) await Promise.allSettled([...this.#unansweredChanges]);
  }

  /** Sends one request; `issue` gets the callback ssh2 answers on. */
  private send<T>(
    request: string,
    issue: (done: (error: Error | undefined | null, value?: T) => void) => void,
    looking = LOOKING.has(request),
  ) {
    const { connection } = this;
    const sent = new Promise<T>((resolve, reject) => {
      if (!connection.alive()) {
        reject(connection.lost());
        return;
      }
      if (!looking) this.#changing++;
      connection.onRequest?.(request);
      // Settled once: by its answer, or failed when the server went silent (ssh2 calls back later, when the channel
      // closes, and that call is then ignored).
      let waiting = true;
      const settle = () => {
        if (!waiting) return false;
        waiting = false;
        this.#waiting.delete(silenced);
        this.#deadline.answered();
        connection.onAnswer?.(request);
        return true;
      };
      const silenced = () => {
        if (settle()) reject(connection.lost());
      };
      this.#waiting.add(silenced);
      this.#deadline.sent();
      try {
        issue((error, value) => {
          if (!settle()) return;
          const status = (error as { code?: unknown } | null | undefined)?.code;
          if (!error) resolve(value as T);
          else if (typeof status === 'number' && connection.alive())
            reject(new SftpStatusError(status, error.message));
          else {
            // ssh2 fails every request still waiting with "No response from server" (no status) when the channel
            // ends.
            connection.ended();
            reject(connection.lost());
          }
        });
      } catch (error) {
        // Refused before it was sent (ssh2 checks its arguments): no answer to wait for.
        settle();
        reject(error as Error);
      }
    });
    if (looking) return sent;
    this.#unansweredChanges.add(sent);
    const settle = () => this.#unansweredChanges.delete(sent);
    sent.then(settle, settle);
    return sent;
  }

  stat(path: string) {
    return this.send<Attributes>('stat', (done) => this.sftp.stat(path, done));
  }
  lstat(path: string) {
    return this.send<Attributes>('lstat', (done) => this.sftp.lstat(path, done));
  }
  fstat(handle: Buffer) {
    return this.send<Attributes>('fstat', (done) => this.sftp.fstat(handle, done));
  }
  realpath(path: string) {
    return this.send<string>('realpath', (done) => this.sftp.realpath(path, done));
  }
  readlink(path: string) {
    return this.send<string>('readlink', (done) => this.sftp.readlink(path, done));
  }
  open(path: string, flags: number, attributes: InputAttributes = {}) {
    // An open for reading only creates and truncates nothing: it only looks.
    return this.send<Buffer>(
      'open',
      (done) => this.sftp.open(path, flags, attributes, done),
      flags === OpenFlags.READ,
    );
  }
  close(handle: Buffer) {
    return this.send<void>('close', (done) => this.sftp.close(handle, done));
  }
  /** Reads at most {@link maxRead} bytes; 0 at the end of the file. */
  read(handle: Buffer, buffer: Buffer, offset: number, length: number, position: number) {
    return this.send<number>('read', (done) =>
      this.sftp.read(handle, buffer, offset, length, position, (error, bytesRead) => done(error, bytesRead)),
    );
  }
  /** Writes at most {@link maxWrite} bytes, all of them. */
  write(handle: Buffer, buffer: Buffer, offset: number, length: number, position: number) {
    return this.send<void>('write', (done) =>
      this.sftp.write(handle, buffer, offset, length, position, done),
    );
  }
  opendir(path: string) {
    return this.send<Buffer>('opendir', (done) => this.sftp.opendir(path, done));
  }
  /** The next entries of an open directory (`.` and `..` left out), or `undefined` at its end. */
  async readdir(handle: Buffer): Promise<SftpEntry[] | undefined> {
    try {
      return await this.send<SftpEntry[]>('readdir', (done) => this.sftp.readdir(handle, done));
    } catch (error) {
      if (error instanceof SftpStatusError && error.status === SftpStatus.EOF) return undefined;
      throw error;
    }
  }
  setstat(path: string, attributes: InputAttributes) {
    return this.send<void>('setstat', (done) => this.sftp.setstat(path, attributes, done));
  }
  fsetstat(handle: Buffer, attributes: InputAttributes) {
    return this.send<void>('fsetstat', (done) => this.sftp.fsetstat(handle, attributes, done));
  }
  mkdir(path: string, attributes: InputAttributes) {
    return this.send<void>('mkdir', (done) => this.sftp.mkdir(path, attributes, done));
  }
  rmdir(path: string) {
    return this.send<void>('rmdir', (done) => this.sftp.rmdir(path, done));
  }
  remove(path: string) {
    return this.send<void>('remove', (done) => this.sftp.unlink(path, done));
  }
  /** SFTP v3's own rename: refuses an existing target. */
  rename(from: string, to: string) {
    return this.send<void>('rename', (done) => this.sftp.rename(from, to, done));
  }
  /** `rename(2)` on the server: replaces an existing target atomically. */
  posixRename(from: string, to: string) {
    return this.send<void>('posix-rename@openssh.com', (done) =>
      this.sftp.ext_openssh_rename(from, to, done),
    );
  }
  /** Creates `path` holding `target` (ssh2 sends the two in the order OpenSSH expects). */
  symlink(target: string, path: string) {
    return this.send<void>('symlink', (done) => this.sftp.symlink(target, path, done));
  }
  fsync(handle: Buffer) {
    return this.send<void>('fsync@openssh.com', (done) => this.sftp.ext_openssh_fsync(handle, done));
  }
  statvfs(path: string) {
    return this.send<FileSystemSpace>('statvfs@openssh.com', (done) =>
      this.sftp.ext_openssh_statvfs(path, done),
    );
  }
}

/** The fields of `statvfs@openssh.com` the backend reads. */
export interface FileSystemSpace {
  readonly f_bavail: number;
  readonly f_favail: number;
  /** The file system's id: ssh2 names OpenSSH's `f_fsid` so. */
  readonly f_sid: number;
  /** The mount flags: `ST_RDONLY` (1), `ST_NOSUID` (2). */
  readonly f_flag: number;
}

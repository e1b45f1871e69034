import type { Readable, Writable } from 'node:stream';
import type { StatsTable } from './stats-table.js';

// The one seam between the tools and the files they work on (docs/file-systems.md). Every file access of core and of
// the tools goes through a `FileSystem`: the local disk (the default), a workspace held in memory, a remote host over
// SSH, or a backend a host writes over its own sandbox API. The operations are the ones the tools need and no more.
//
// Errors: an operation rejects with an `Error` whose `code` is the POSIX name of what went wrong (`ENOENT`, `EEXIST`,
// `ENOTDIR`, `EISDIR`, `ENOTEMPTY`, `ELOOP`, `EACCES`, `EPERM`, `ENOSPC`, `EXDEV`, `ENAMETOOLONG`, `EINVAL`), as
// Node's own `fs` errors carry; an operation the backend cannot do at all rejects with `ENOSYS`; a transport that failed (a dropped
// connection) rejects with `ECONNRESET` and a message that says so. Core decides on `code` alone.

/** What a path or a directory entry is. Node's `Stats` and `Dirent` have exactly these tests. */
export interface FileTypeTests {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/**
 * What a backend says of a file. A field the backend cannot know is absent, never 0: SFTP knows no inode, device,
 * link count or change time, so a stamp made over SSH compares size, whole-second mtime and content hash alone.
 */
export interface FileStats extends FileTypeTests {
  /** Size in bytes. */
  readonly size: number;
  /** `st_mode`: the type bits and the permission bits (`mode & 0o7777`). */
  readonly mode: number;
  /** Modification time, milliseconds since the epoch (as fine as the backend keeps it: see `timeResolutionMs`). */
  readonly mtimeMs: number;
  /** Modification time in nanoseconds, where the backend has it that fine. */
  readonly mtimeNs?: bigint;
  /** Change time of the inode in nanoseconds; it cannot be set back by user space, which makes it a tamper check. */
  readonly ctimeNs?: bigint;
  /** Inode number. */
  readonly ino?: bigint;
  /** Device the file is on. */
  readonly dev?: bigint;
  /** Number of hard links. */
  readonly nlink?: number;
  readonly uid?: number;
  readonly gid?: number;
}

/** One entry of {@link FileSystem.readdir}: its name and what it is (a symlink is reported as a symlink). */
export interface DirEntry extends FileTypeTests {
  readonly name: string;
}

/**
 * What {@link OpenFile.scanLinesWhereStored} is asked: the one pass over a text file of an ASCII-compatible encoding
 * that core's `scanLines` makes to build a line index (docs/file-systems.md#line-scans-where-the-file-is).
 */
export interface StoredLineScanRequest {
  /** Bytes `[0, end)` are scanned: the size the open file's `stat()` gave. */
  readonly end: number;
  /** A byte order mark: when the file starts with it, its first line starts after it (empty: none). */
  readonly bom: Uint8Array;
  /** Whether to give the hex SHA-256 of bytes `[0, end)`. */
  readonly hash: boolean;
  /** Whether to look for a `00` byte. */
  readonly findNulByte: boolean;
  /** Whether to check that the bytes are strict UTF-8 (as a fatal `TextDecoder` would). */
  readonly checkUtf8: boolean;
  /** Least distance in bytes between two checkpoints after the first. */
  readonly checkpointBytes: number;
  /** Stops the scan: the call then rejects with an `AbortError`. */
  readonly signal?: AbortSignal;
}

/** What a {@link StoredLineScanRequest} found: exactly what `scanLines` would have, over the same bytes. */
export interface StoredLineScan {
  /** Lines, breaks being `\n`, `\r\n` and a lone `\r`; bytes after the last break are a last line. */
  readonly totalLines: number;
  /**
   * Line starts in increasing order: line 1 at offset 0 first (the byte order mark is skipped from there), then
   * starts right after a `\n`, at least `checkpointBytes` apart, each with its 1-based line number.
   */
  readonly checkpoints: ReadonlyArray<{ readonly line: number; readonly offset: number }>;
  /** With `hash`. */
  readonly hash?: string;
  /** With `findNulByte`: a `00` byte is there. */
  readonly nulByte: boolean;
  /** With `checkUtf8`: the bytes are not UTF-8 (a character cut off by `end` included). */
  readonly notUtf8: boolean;
}

/** A file opened by {@link FileSystem.open} or {@link FileSystem.create}; positions are absolute byte offsets. */
export interface OpenFile {
  /** Reads up to `length` bytes at `position` into `buffer[offset...]`; `bytesRead` 0 means the end of the file. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  /**
   * Writes `buffer[offset, offset + length)` at `position`; may write fewer bytes (callers loop). A backend may send
   * it without waiting for its answer: its failure then comes from the file's next `sync()`, `stat()`, read or
   * `close()`, which a caller that needs the content written checks.
   */
  write(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesWritten: number }>;
  /** The stats of this open file (not of whatever the path names now). */
  stat(): Promise<FileStats>;
  truncate(length: number): Promise<void>;
  /** Flushes the content to stable storage where the backend can (`capabilities.fsync`); otherwise resolves. */
  sync(): Promise<void>;
  /** Sets the permission bits. */
  chmod(mode: number): Promise<void>;
  /** Sets the owner, where the backend and the caller's rights allow; callers treat a failure as harmless. */
  chown(uid: number, gid: number): Promise<void>;
  /**
   * `chmod(mode)` then `chown(owner.uid, owner.gid)` in one call, where that costs less than two (SFTP: one
   * `fsetstat`): the owner is set where the backend and the caller's rights allow, and the call rejects only when the
   * permission bits could not be set. Optional: callers use core's `setModeAndOwner`, which falls back on the two.
   */
  setModeAndOwner?(mode: number, owner: { uid: number; gid: number }): Promise<void>;
  /**
   * Optional, for a backend where reading a large file costs more than scanning it where it is stored (over SSH: the
   * host's Python, so that a 1 GiB log is counted there rather than carried over the link): the scan of this open
   * file's lines a line index needs. `undefined` when the backend does not make it (too small to be worth it, no
   * program there, or the file scanned was not this version of it: size and modification time must be those of
   * `stat()`); the caller then reads the file. Callers use core's `scanLinesWhereStored`.
   */
  scanLinesWhereStored?(request: StoredLineScanRequest): Promise<StoredLineScan | undefined>;
  close(): Promise<void>;
}

/** How {@link FileSystem.open} opens an existing file. */
export type OpenMode =
  /** Reading. Must return at once for a FIFO or a device (never wait for a writer); the caller checks `stat()`. */
  | 'read'
  /** Reading and writing in place, without truncating (a file with several hard links is rewritten so). */
  | 'update';

/** A program run by {@link FileSystem.exec}: its output streams and how it ended. */
export interface ExecProcess {
  /** Standard input, when `stdin: 'pipe'` was asked; otherwise it is closed from the start. */
  readonly stdin: Writable | null;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /**
   * Settles once the program ended and its output streams closed: the exit code, or the signal that ended it. Rejects
   * when the program could not be started (`ENOENT` for a program that does not exist) or the transport failed.
   */
  readonly exit: Promise<{ code: number | null; signal: string | null }>;
  /**
   * Settles once the program is running, or never will be: `true` from the moment it runs (its standard input takes
   * writes from then on: a write to a program that never started fails where no caller sees it), `false` when it
   * could not start (`exit` rejects with why) or was killed first. Never rejects.
   */
  readonly started: Promise<boolean>;
  /**
   * Ends the program at once (SIGKILL where the backend can send signals). Idempotent. Where the program runs on this
   * machine the signal is sent before `kill` returns, so a host may call it from its `process.on('exit')` listener;
   * what a program on another host sees when this process exits is its standard input closing with the connection.
   */
  kill(): void;
  /**
   * The program's process id on the host that runs it, once known (at the latest when `started` resolves `true`);
   * `undefined` before that, or where the backend cannot tell. Grep reads the state of its ripgrep in that host's
   * `/proc` through the file system.
   */
  readonly pid?: number | undefined;
}

/** Options of {@link FileSystem.exec}. */
export interface ExecOptions {
  /** Working directory of the program (absolute, on the backend's side). */
  cwd?: string;
  /** Environment variables set on top of the backend's own; a variable set to `undefined` is removed. */
  env?: Readonly<Record<string, string | undefined>>;
  /** `'pipe'` to write to the program's standard input (a language server); default `'ignore'`. */
  stdin?: 'pipe' | 'ignore';
}

/** What a backend can do; core's rules adapt to it (docs/file-systems.md#capabilities). */
export interface FileSystemCapabilities {
  /** `rename` replaces an existing target atomically (else atomic writes are refused rather than faked). */
  readonly atomicReplace: boolean;
  /** `create` fails with `EEXIST` atomically when the path exists (lock files rely on it). */
  readonly exclusiveCreate: boolean;
  /** `sync` really flushes file content (OpenSSH's `fsync@openssh.com`, the local disk). */
  readonly fsync: boolean;
  /** How fine modification times are, in milliseconds (1000 over SFTP). */
  readonly timeResolutionMs: number;
  /** `stat` reports `ino` and `dev`. */
  readonly inodes: boolean;
  /** `stat` reports `ctimeNs`. */
  readonly ctime: boolean;
  /** `stat` reports `nlink`, and `link` works. */
  readonly linkCounts: boolean;
  /** Process ids in lock files name processes this host can see (only the local disk). */
  readonly localProcesses: boolean;
  /** `exec` runs programs where the files are. */
  readonly exec: boolean;
  /**
   * Every operation is carried out after those called before it, whether or not their answers have come (one SFTP
   * session serves its requests in order): a lock's release is then not waited for. Absent: false.
   */
  readonly requestsInOrder?: boolean;
  /**
   * A path may name a file whose name is not UTF-8, each byte that is no part of a valid character carried as a lone
   * surrogate, byte 0x80–0xFF as U+DC80–U+DCFF (core's `nameFromBytes`), and `readdir`, `realpath` and `readlink`
   * give such a name that way. Absent: false, and core refuses such a path as invalid before the backend sees it (a
   * backend that wrote it as UTF-8 would reach the file named with U+FFFD instead).
   */
  readonly byteNames?: boolean;
}

/**
 * The file system the tools work on. Paths are absolute, in the backend's own syntax (`platform`). Unless an
 * operation says otherwise it follows symbolic links; `lstat`, `readlink`, `readdir` entries, `unlink`, `rename` and
 * `symlink` act on the link itself. See docs/file-systems.md for the full contract and the conformance tests every
 * backend runs (`describeFileSystemConformance` in the test kit).
 */
export interface FileSystem {
  /** A short name for messages and result extras: `local`, `memory`, `ssh`... */
  readonly name: string;
  /** Path rules of the backend's paths (`linux` for SSH and memory: POSIX paths, case-sensitive). */
  readonly platform: NodeJS.Platform;
  /** Where `~` points on the backend. */
  readonly homeDir: string;
  readonly capabilities: FileSystemCapabilities;
  /**
   * Whose files these are, where `name` does not tell: over SSH `ssh user@host:port`, so that what this host keeps
   * for a workspace (a checkpoint store) is not shared by the same path on another host. Absent: the backend is the
   * only one of its `name` (the local disk).
   */
  readonly identity?: string;
  /**
   * The time on the clock that stamps the backend's files, in milliseconds since the epoch, where that clock is not
   * this process's: over SSH the host's, read from the modification time of a file made there. Never later than the
   * moment it resolves, as that clock counts and as finely as it stamps files. Absent: `Date.now()`.
   */
  now?(): Promise<number>;

  stat(path: string): Promise<FileStats>;
  /** Like `stat`, but of a symbolic link itself. */
  lstat(path: string): Promise<FileStats>;
  /** The canonical path: every symbolic link resolved; rejects when the path does not exist. */
  realpath(path: string): Promise<string>;
  /**
   * Like `realpath`, but the last name may be missing: then the answer is the canonical path of its parent joined
   * with that name, a dangling link there followed to where it points. Rejects when anything else is missing or wrong
   * (the caller then works it out with `realpath`). Optional: a backend gives it where it costs less than `realpath`
   * of the path and of its parent (OpenSSH's SFTP `realpath` answers exactly this in one request).
   */
  realpathLastMayBeMissing?(path: string): Promise<string>;
  /** The target text of a symbolic link, as stored (`EINVAL` when the path is not a link). */
  readlink(path: string): Promise<string>;
  /** The entries of a directory (not `.` and `..`), in no particular order. */
  readdir(path: string): Promise<DirEntry[]>;
  /**
   * The `lstat` of many paths below `base` in one call, where the backend does that at less cost than one call each
   * (the local disk: synchronous `lstat`s, in slices). `paths` are relative to `base`, `/`-separated (`''` is `base`
   * itself). One entry per path, in order, in a {@link StatsTable}: nothing where nothing is (`ENOENT`, `ENOTDIR`);
   * rejects on any other error. Optional: callers use core's `lstatMany`, which falls back on `lstat`.
   */
  lstatMany?(base: string, paths: readonly string[]): Promise<StatsTable>;

  /** Opens an existing file (see {@link OpenMode}). */
  open(path: string, mode: OpenMode): Promise<OpenFile>;
  /**
   * Creates a new file for reading and writing, atomically failing with `EEXIST` when anything is at `path` (a
   * dangling symlink included: it is never followed). `mode` defaults to `0o666`, trimmed as the backend trims it.
   */
  create(path: string, mode?: number): Promise<OpenFile>;

  /** Renames a file or directory, replacing an existing file at `to` atomically (`capabilities.atomicReplace`). */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file or a symbolic link (never a directory). */
  unlink(path: string): Promise<void>;
  /** Creates a directory; with `recursive`, its missing parents too, and an existing directory is fine. */
  mkdir(path: string, options?: { recursive?: boolean; mode?: number }): Promise<void>;
  /** Removes an empty directory. */
  rmdir(path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  /** Sets the access and modification times (seconds since the epoch, fractions where the backend keeps them). */
  utimes(path: string, atime: number, mtime: number): Promise<void>;
  /** Creates a symbolic link at `path` holding `target` as given. */
  symlink(target: string, path: string): Promise<void>;
  /** Creates a hard link; `ENOSYS` where the backend has none (`capabilities.linkCounts`). */
  link(existing: string, path: string): Promise<void>;
  /** Flushes a directory's entries (a rename) to stable storage where the backend can; otherwise resolves. */
  syncDirectory(path: string): Promise<void>;

  /**
   * Runs a program where the files are (`capabilities.exec`): ripgrep for Grep, a language server for diagnostics.
   * Absent when the backend runs nothing; the tools then use their portable path.
   */
  exec?(command: string, args: readonly string[], options?: ExecOptions): ExecProcess;

  /** Ends the backend's connections and processes; later calls may reconnect. Idempotent. */
  close?(): Promise<void>;
}

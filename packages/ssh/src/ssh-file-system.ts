import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import {
  FileType,
  hasLoneSurrogate,
  isFileType,
  mayHaveLostBytes,
  type DirEntry,
  type ExecOptions,
  type FileSystem,
  type FileSystemCapabilities,
  type OpenFile,
  type OpenMode,
} from '@kimi-tools/core/fs';
import { SshConnection } from './connection.js';
import { errnoError } from './errno-error.js';
import { HostDirectoryReader } from './host-directory-reader.js';
import { HostPython } from './host-line-scan.js';
import {
  connectionSettings,
  hostProgramSettings,
  type HostProgramSettings,
  type SshFileSystemOptions,
} from './options.js';
import { pathTooLong } from './path-limits.js';
import { Remote } from './remote.js';
import { remoteExec } from './remote-exec.js';
import { OpenFlags, type SftpSession } from './sftp-session.js';
import { readsAhead, readStart, SftpOpenFile, statConfirmedBy } from './sftp-open-file.js';
import { toDirEntry, toFileStats } from './sftp-stats.js';
import { DirectoryOpenedWithRename } from './directory-opened-with-rename.js';
import { StatsSentAhead } from './stats-sent-ahead.js';
import { UnopenedFile } from './unopened-file.js';

/**
 * Where the host's clock is read (see `now`): its temp directory, which every POSIX host has, unless the SFTP server
 * cannot write there (a read-only `/tmp`, a chroot without one): then the workspace's root.
 */
const CLOCK_DIRECTORY = '/tmp';

/**
 * Why a path holding a name that is not UTF-8 (its bytes as escapes, docs/paths.md#names-that-are-not-utf-8) is
 * refused: ssh2 writes every SFTP path as UTF-8 and has no way to send other bytes.
 */
const NOT_UTF8_OVER_SFTP = 'a name that is not UTF-8 cannot be sent over SFTP';

/**
 * How many times an exclusive create is sent before an unexplained failure is taken for an I/O error. Each such
 * failure under contention is a lock file taken and given back between the create and the look that follows: with
 * four writers taking one lock in turn, four in a row happened (a clean-clone CI run of the conformance case).
 */
const CREATE_ATTEMPTS = 16;

/** A {@link FileSystem} on a host reached over SSH, with the workspace it was made for. */
export interface SshFileSystem extends FileSystem {
  readonly name: 'ssh';
  /** `ssh user@host:port`: the same path on another host (or as another user) is other files. */
  readonly identity: string;
  /** The workspace on the host, by its canonical path. */
  readonly root: string;
  /** Runs a program on the host, over an `exec` channel of the connection. */
  exec: NonNullable<FileSystem['exec']>;
  /** The host's clock, as it stamps files: see {@link FileSystem.now}. */
  now: NonNullable<FileSystem['now']>;
  /**
   * Closes the connection once the calls in flight have ended, with what they lead to (a lock's release, sent and
   * not waited for), for the answer timeout at most; the next call connects again.
   */
  close(): Promise<void>;
}

/**
 * A file system on a remote host over one SSH connection (ssh2): SFTP for the files, `exec` channels for programs.
 * Connects at once, to check the host key, learn what the server offers and check `root`; rejects with a clear
 * error when any of that fails. A connection that drops fails the calls in flight with `ECONNRESET` and is made
 * again by the next call. End it with `close()`: an open connection keeps the Node process running.
 */
export async function sshFileSystem(options: SshFileSystemOptions): Promise<SshFileSystem> {
  const settings = connectionSettings(options);
  const hostPrograms = hostProgramSettings(options);
  const connection = new SshConnection(settings);
  const remote = new Remote(connection, settings.answerTimeoutMs);
  try {
    const { sftp } = await connection.session();
    const [homeDir, root] = await Promise.all([
      remote.on(sftp, 'realpath', ['.'], (session) => session.realpath('.')),
      remote.on(sftp, 'scandir', [settings.root], async (session) => {
        const [canonical, attrs] = await Promise.all([
          session.realpath(settings.root),
          session.stat(settings.root),
        ]);
        if (!isFileType(attrs.mode, FileType.DIRECTORY))
          throw errnoError('ENOTDIR', 'scandir', [settings.root]);
        return canonical;
      }),
    ]);
    const identity = `ssh ${settings.username}@${settings.host}:${settings.port}`;
    return backend(remote, capabilitiesOf(sftp), homeDir, root, identity, hostPrograms);
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** What OpenSSH's SFTP can do, from the extensions this server announced. */
function capabilitiesOf(sftp: SftpSession): FileSystemCapabilities {
  return Object.freeze({
    atomicReplace: sftp.extensions.has('posix-rename@openssh.com'),
    exclusiveCreate: true,
    fsync: sftp.extensions.has('fsync@openssh.com'),
    timeResolutionMs: 1000,
    inodes: false,
    ctime: false,
    linkCounts: false,
    localProcesses: false,
    exec: true,
    // One session answers its requests one after another, in the order sent (a program on the host, or a listing
    // by one, starts once the changes sent before it are answered).
    requestsInOrder: true,
  });
}

function backend(
  remote: Remote,
  capabilities: FileSystemCapabilities,
  homeDir: string,
  root: string,
  identity: string,
  hostPrograms: HostProgramSettings,
): SshFileSystem {
  // A program on the host runs on a channel of its own: it starts once the SFTP requests that may change a path sent
  // before it are answered, so it sees what they changed (a lock's removal is sent without waiting:
  // `requestsInOrder`). Looks in flight are not waited for.
  const sessionAfterSftp = async () => {
    const session = await remote.session();
    await session.sftp.changesAnswered();
    return session;
  };
  const exec = (command: string, args: readonly string[], options?: ExecOptions) =>
    remoteExec(sessionAfterSftp, command, args, options);
  const directoryReader = new HostDirectoryReader({
    session: () => remote.session(),
    program: hostPrograms.python,
  });
  const hostPython = new HostPython({
    exec,
    startTimeoutMs: hostPrograms.startTimeoutMs,
    program: hostPrograms.python,
    scanMinBytes: hostPrograms.scanMinBytes,
  });
  const statsAhead = new StatsSentAhead();
  const renamedInto = new DirectoryOpenedWithRename();
  const run = <T>(syscall: string, paths: readonly string[], work: (sftp: SftpSession) => Promise<T>) => {
    const relative = paths.find((each) => !each.startsWith('/'));
    if (relative !== undefined) {
      return Promise.reject(errnoError('EINVAL', syscall, paths, 'paths on the SSH backend are absolute'));
    }
    if (paths.some(pathTooLong)) return Promise.reject(errnoError('ENAMETOOLONG', syscall, paths));
    // ssh2 writes every SFTP path as UTF-8: a byte escape would go as U+FFFD and reach the file of that name.
    if (paths.some(hasLoneSurrogate)) {
      return Promise.reject(errnoError('EINVAL', syscall, paths, NOT_UTF8_OVER_SFTP));
    }
    return remote.run(syscall, paths, work);
  };

  const mkdirOne = (path: string, mode: number | undefined) =>
    run('mkdir', [path], (sftp) => sftp.mkdir(path, mode === undefined ? {} : { mode }));

  /** Like `mkdir -p`: a directory already there is fine, a file there is `EEXIST`. */
  const mkdirRecursive = async (path: string, mode: number | undefined): Promise<void> => {
    const existing = await run('mkdir', [path], (sftp) => sftp.stat(path)).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      },
    );
    if (existing) {
      if (isFileType(existing.mode, FileType.DIRECTORY)) return;
      throw errnoError('EEXIST', 'mkdir', [path]);
    }
    const parent = posix.dirname(path);
    if (parent !== path) await mkdirRecursive(parent, mode);
    try {
      await mkdirOne(path, mode);
    } catch (error) {
      // Made by someone else in between.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const made = await run('mkdir', [path], (sftp) => sftp.stat(path));
      if (!isFileType(made.mode, FileType.DIRECTORY)) throw error;
    }
  };

  const createOnce = (path: string, mode: number) =>
    run('create', [path], async (sftp): Promise<OpenFile> => {
      const flags = OpenFlags.READ | OpenFlags.WRITE | OpenFlags.CREAT | OpenFlags.EXCL;
      const handle = await sftp.open(path, flags, { mode });
      return new SftpOpenFile(remote, sftp, handle, path, { writable: true });
    });

  /**
   * An exclusive create. SFTP says only FAILURE when the path exists; asked why, the server may find it gone already
   * (a lock file its holder just removed), which leaves the failure unexplained (EIO). An exclusive create is safe to
   * send again: a few more tries tell EEXIST, or succeed, where a real I/O error stays one.
   */
  const createExclusive = async (path: string, mode: number): Promise<OpenFile> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await createOnce(path, mode);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EIO' || attempt === CREATE_ATTEMPTS) throw error;
      }
    }
  };

  /**
   * The host's clock as it stamps files, read in `directory`: a file made there, then its stats, its close and its
   * removal sent together (two round trips). SFTP's times are whole seconds, so the time is never later than now.
   */
  const clockIn = (directory: string) => {
    const probe = posix.join(directory, `.kimi-clock.kimi-tmp-${randomBytes(6).toString('hex')}`);
    return run('create', [probe], async (sftp) => {
      const flags = OpenFlags.READ | OpenFlags.WRITE | OpenFlags.CREAT | OpenFlags.EXCL;
      const handle = await sftp.open(probe, flags, { mode: 0o600 });
      const [attrs] = await Promise.allSettled([sftp.fstat(handle), sftp.close(handle), sftp.remove(probe)]);
      if (attrs.status === 'rejected') throw attrs.reason;
      return attrs.value.mtime * 1000;
    });
  };
  let clockDirectory = CLOCK_DIRECTORY;
  // A temp directory the server cannot write would leave callers this machine's clock, which may be off from the
  // host's by any amount (a clean-up would take a live lock on a host an hour behind for an hour old): the workspace,
  // which the tools write, is used from then on. A dropped connection says nothing of the directory.
  const now = async () => {
    try {
      return await clockIn(clockDirectory);
    } catch (error) {
      if (clockDirectory === root || (error as NodeJS.ErrnoException).code === 'ECONNRESET') throw error;
      const time = await clockIn(root);
      clockDirectory = root;
      return time;
    }
  };

  const openForReading = (path: string) =>
    run('open', [path], async (sftp): Promise<OpenFile> => {
      // Only a regular file is opened on the server: opening a FIFO there would block the whole session. The stat
      // sent with the path's resolution is that stat when the open follows it at once.
      const statting = statsAhead.take(sftp, path)?.catch(() => sftp.stat(path));
      const attrs = await (statting ?? sftp.stat(path));
      if (isFileType(attrs.mode, FileType.SOCKET)) throw errnoError('ENXIO', 'open', [path]);
      if (!isFileType(attrs.mode, FileType.FILE)) return new UnopenedFile(path, toFileStats(attrs));
      const handle = await sftp.open(path, OpenFlags.READ);
      // A file of up to a few reads is read whole at once, and the read's end confirms the stat's size, so no fstat
      // is sent. A larger one is left to the reads the caller makes, its stats asked first.
      const readAhead = readsAhead(sftp, attrs.size)
        ? remote.on(sftp, 'read', [path], (session) => readStart(session, handle, attrs.size))
        : undefined;
      const firstStat = readAhead ? statConfirmedBy(sftp, handle, readAhead, attrs) : sftp.fstat(handle);
      return new SftpOpenFile(remote, sftp, handle, path, {
        writable: false,
        firstStat,
        ...(readAhead ? { readAhead } : {}),
        hostPython,
      });
    });

  const readdirOverSftp = (path: string) =>
    run('scandir', [path], async (sftp) => {
      const handle = await sftp.opendir(path);
      const entries = [];
      try {
        for (let batch = await sftp.readdir(handle); batch; batch = await sftp.readdir(handle)) {
          for (const entry of batch) entries.push(toDirEntry(entry.filename, entry.attrs));
        }
      } finally {
        sftp.close(handle).catch(() => undefined);
      }
      return entries;
    });

  /**
   * A listing asked before the host's program is ready: over SFTP, where ssh2 decodes every name as UTF-8. A name
   * that is not UTF-8 would come as U+FFFD, the name of another file, and a path holding one cannot be sent at all:
   * for those, the program is waited for, which sends names as bytes (docs/paths.md#names-that-are-not-utf-8).
   */
  const readdirBeforeHost = async (path: string): Promise<DirEntry[]> => {
    const overSftp = () => readdirOverSftp(path);
    const entries = hasLoneSurrogate(path) ? undefined : await overSftp();
    if (entries?.every((entry) => !mayHaveLostBytes(entry.name))) return entries;
    if (!(await directoryReader.whenReady())) return entries ?? overSftp();
    return (await directoryReader.readdir(path, overSftp)) ?? entries ?? overSftp();
  };

  const fileSystem: SshFileSystem = {
    name: 'ssh',
    platform: 'linux',
    homeDir,
    root,
    identity,
    capabilities,
    now,
    stat: (path) =>
      run('stat', [path], (sftp) => statsAhead.take(sftp, path) ?? sftp.stat(path)).then(toFileStats),
    lstat: (path) => run('lstat', [path], (sftp) => sftp.lstat(path)).then(toFileStats),
    // OpenSSH resolves a path whose last part is missing; the contract wants ENOENT, so the path is asked for too.
    realpath: (path) =>
      run('realpath', [path], async (sftp) => (await Promise.all([sftp.realpath(path), sftp.stat(path)]))[0]),
    // OpenSSH's own answer: its realpath resolves a missing last name (and a dangling link there), nothing deeper.
    realpathLastMayBeMissing: (path) => run('realpath', [path], (sftp) => statsAhead.realpath(sftp, path)),
    readlink: (path) => run('readlink', [path], (sftp) => sftp.readlink(path)),
    readdir: (path) => {
      const overSftp = () => readdirOverSftp(path);
      if (!path.startsWith('/') || pathTooLong(path)) return overSftp();
      return sessionAfterSftp().then(
        () => directoryReader.readdir(path, overSftp) ?? readdirBeforeHost(path),
      );
    },
    open: (path, mode: OpenMode) => {
      if (mode === 'read') return openForReading(path);
      return run('open', [path], async (sftp): Promise<OpenFile> => {
        const handle = await sftp.open(path, OpenFlags.READ | OpenFlags.WRITE);
        return new SftpOpenFile(remote, sftp, handle, path, {
          writable: true,
          firstStat: sftp.fstat(handle),
        });
      });
    },
    create: (path, mode = 0o666) => createExclusive(path, mode),
    rename: (from, to) =>
      run('rename', [from, to], (sftp) => {
        const renaming = capabilities.atomicReplace ? sftp.posixRename(from, to) : sftp.rename(from, to);
        // The directory's handle for the sync that makes the rename durable, sent with it.
        if (capabilities.fsync) renamedInto.keep(sftp, to, renaming);
        return renaming;
      }),
    unlink: (path) => run('unlink', [path], (sftp) => sftp.remove(path)),
    mkdir: (path, options = {}) =>
      options.recursive ? mkdirRecursive(path, options.mode) : mkdirOne(path, options.mode),
    rmdir: (path) => run('rmdir', [path], (sftp) => sftp.rmdir(path)),
    chmod: (path, mode) => run('chmod', [path], (sftp) => sftp.setstat(path, { mode: mode & 0o7777 })),
    // SFTP v3 carries whole seconds.
    utimes: (path, atime, mtime) =>
      run('utime', [path], (sftp) =>
        sftp.setstat(path, { atime: Math.floor(atime), mtime: Math.floor(mtime) }),
      ),
    symlink: (target, path) => run('symlink', [path], (sftp) => sftp.symlink(target, path)),
    // The interface ties `link` to link counts, which SFTP v3 cannot report (`capabilities.linkCounts`).
    link: (existing, path) =>
      Promise.reject(
        errnoError('ENOSYS', 'link', [existing, path], 'SFTP reports no link counts, so no links'),
      ),
    syncDirectory: async (path) => {
      if (!capabilities.fsync) return;
      // fsync@openssh.com takes a file handle; OpenSSH opens a directory for reading as one, and Linux syncs it.
      await run('fsync', [path], async (sftp) => {
        const opened = renamedInto.take(sftp, path);
        const handle = await (opened?.handle ?? sftp.open(path, OpenFlags.READ));
        try {
          const syncing = sftp.fsync(handle);
          // Core states the file it just wrote once the rename is durable: that stat goes with the sync.
          if (opened) statsAhead.keepStat(sftp, opened.renamed, sftp.stat(opened.renamed));
          await syncing;
        } finally {
          sftp.close(handle).catch(() => undefined);
        }
      }).catch(() => {
        // Best effort, as on the local disk: the rename it follows is done, whatever happens here.
      });
    },
    exec,
    close: () => remote.close(),
  };
  return Object.freeze(fileSystem);
}

import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type {
  DirEntry,
  ExecOptions,
  ExecProcess,
  FileStats,
  FileSystem,
  FileSystemCapabilities,
  OpenFile,
  OpenMode,
} from './file-system.js';
import { errorNamingPaths, hasLoneSurrogate, nodePath } from './byte-names.js';
import { readdirLocal, readlinkLocal, realpathLocal } from './local-byte-names.js';
import { lstatManyLocal } from './local-lstat-many.js';
import { nodeOs } from './load-on-use.js';

// `node:fs` as its CommonJS module: its ES facade reads every export, `ReadStream` included, which loads Node's
// twenty stream modules at every start of a process importing core (a few ms of CPU; `pnpm bench coldStart`).
const { constants, promises: fs } = process.getBuiltinModule('node:fs');

/** The local disk's stats: Node's exact (bigint) stats, with size and mode as the numbers the interface promises. */
class LocalStats implements FileStats {
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;

  constructor(private readonly stats: BigIntStats) {
    this.size = Number(stats.size);
    this.mode = Number(stats.mode);
    this.mtimeMs = Number(stats.mtimeMs);
    this.mtimeNs = stats.mtimeNs;
    this.ctimeNs = stats.ctimeNs;
    this.ino = stats.ino;
    this.dev = stats.dev;
    this.nlink = Number(stats.nlink);
    this.uid = Number(stats.uid);
    this.gid = Number(stats.gid);
  }

  // Methods rather than arrow properties: Grep stats every file it lists, and seven closures per stat add up.
  isFile() {
    return this.stats.isFile();
  }
  isDirectory() {
    return this.stats.isDirectory();
  }
  isSymbolicLink() {
    return this.stats.isSymbolicLink();
  }
  isFIFO() {
    return this.stats.isFIFO();
  }
  isSocket() {
    return this.stats.isSocket();
  }
  isCharacterDevice() {
    return this.stats.isCharacterDevice();
  }
  isBlockDevice() {
    return this.stats.isBlockDevice();
  }
}

const BIGINT = { bigint: true } as const;

/** Rethrows an error of Node's `fs` with `path` (and `dest`) named as given, not as Node wrote their bytes. */
function naming(path: string, dest?: string): (error: unknown) => never {
  return (error) => {
    throw errorNamingPaths(error, path, dest);
  };
}

const localLstat = async (path: string): Promise<FileStats> =>
  new LocalStats(await fs.lstat(nodePath(path), BIGINT).catch(naming(path)));

/** A Node `FileHandle` as an {@link OpenFile}: reads and writes pass straight through. */
class LocalOpenFile implements OpenFile {
  constructor(private readonly handle: FileHandle) {}

  read(buffer: Uint8Array, offset: number, length: number, position: number) {
    return this.handle.read(buffer, offset, length, position);
  }
  write(buffer: Uint8Array, offset: number, length: number, position: number) {
    return this.handle.write(buffer, offset, length, position);
  }
  async stat(): Promise<FileStats> {
    return new LocalStats(await this.handle.stat(BIGINT));
  }
  truncate(length: number) {
    return this.handle.truncate(length);
  }
  sync() {
    return this.handle.sync();
  }
  chmod(mode: number) {
    return this.handle.chmod(mode);
  }
  chown(uid: number, gid: number) {
    return this.handle.chown(uid, gid);
  }
  close() {
    return this.handle.close();
  }
}

/**
 * How each {@link OpenMode} opens: O_NONBLOCK so that opening a FIFO returns at once instead of parking one of
 * libuv's four pool threads until a writer comes (with the pool exhausted every later file operation of the process,
 * module loading included, would wait forever).
 */
const OPEN_FLAGS: Record<OpenMode, number> = {
  read: constants.O_RDONLY | constants.O_NONBLOCK,
  update: constants.O_RDWR,
};

const CREATE_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_RDWR;

const LOCAL_CAPABILITIES: FileSystemCapabilities = Object.freeze({
  atomicReplace: true,
  exclusiveCreate: true,
  fsync: true,
  timeResolutionMs: 0.000001,
  inodes: true,
  ctime: true,
  linkCounts: true,
  localProcesses: true,
  exec: true,
  // Windows names are UTF-16, and Node reads a `Buffer` path there as UTF-8: no byte escape means anything there.
  byteNames: process.platform !== 'win32',
});

function execLocal(command: string, args: readonly string[], options: ExecOptions = {}): ExecProcess {
  // Node passes a program's arguments and directory as UTF-8 only: a byte escape would reach it as U+FFFD, another
  // name. The caller takes its portable path for such a name (Grep: its own search).
  if ([command, options.cwd ?? '', ...args].some(hasLoneSurrogate)) {
    throw Object.assign(new Error('EINVAL: a name that is not UTF-8 cannot be passed to a program'), {
      code: 'EINVAL',
    });
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  // Loaded on the first program run: most processes never run one, and `node:child_process` brings `net` and the
  // stream modules (a few ms of CPU at every start of a process importing core).
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env,
    stdio: [options.stdin === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  // Node says `spawn` once the program runs, `error` first when it could not start.
  const started = new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  return {
    stdin: child.stdin,
    stdout: child.stdout!,
    stderr: child.stderr!,
    exit,
    started,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    pid: child.pid,
  };
}

/** `readdir` as a promise, for callers other than Glob's walk (which takes {@link readDirectoryEntries}). */
function readdirAsPromise(path: string): Promise<DirEntry[]> {
  return new Promise((resolve, reject) => {
    readdirLocal(path, (error, entries) => (error ? reject(error) : resolve(entries as DirEntry[])));
  });
}

/** The local disk, through Node's `fs` and `child_process`: the default file system of every runtime. */
export const localFileSystem: FileSystem = Object.freeze({
  name: 'local',
  platform: process.platform,
  // Asked each time, as `os.homedir()` is: a host (or a test) may change HOME while it runs.
  get homeDir() {
    return nodeOs().homedir();
  },
  capabilities: LOCAL_CAPABILITIES,
  stat: async (path: string) => new LocalStats(await fs.stat(nodePath(path), BIGINT).catch(naming(path))),
  lstat: localLstat,
  lstatMany: lstatManyLocal,
  realpath: realpathLocal,
  readlink: readlinkLocal,
  readdir: readdirAsPromise,
  open: async (path: string, mode: OpenMode) =>
    new LocalOpenFile(await fs.open(nodePath(path), OPEN_FLAGS[mode]).catch(naming(path))),
  create: async (path: string, mode = 0o666) =>
    new LocalOpenFile(await fs.open(nodePath(path), CREATE_FLAGS, mode).catch(naming(path))),
  rename: async (from: string, to: string) => fs.rename(nodePath(from), nodePath(to)).catch(naming(from, to)),
  unlink: async (path: string) => fs.unlink(nodePath(path)).catch(naming(path)),
  mkdir: async (path: string, options: { recursive?: boolean; mode?: number } = {}) => {
    await fs.mkdir(nodePath(path), options).catch(naming(path));
  },
  rmdir: async (path: string) => fs.rmdir(nodePath(path)).catch(naming(path)),
  chmod: async (path: string, mode: number) => fs.chmod(nodePath(path), mode).catch(naming(path)),
  utimes: async (path: string, atime: number, mtime: number) =>
    fs.utimes(nodePath(path), atime, mtime).catch(naming(path)),
  // Node names a link's target first: `symlink '{target}' -> '{path}'`.
  symlink: async (target: string, path: string) =>
    fs.symlink(nodePath(target), nodePath(path)).catch(naming(target, path)),
  link: async (existing: string, path: string) =>
    fs.link(nodePath(existing), nodePath(path)).catch(naming(existing, path)),
  syncDirectory: async (path: string) => {
    // Makes a rename durable; not every platform can open or sync a directory, which is fine.
    let handle: FileHandle | undefined;
    try {
      handle = await fs.open(nodePath(path), 'r');
      await handle.sync();
    } catch {
      // Best effort only.
    } finally {
      await handle?.close().catch(() => undefined);
    }
  },
  exec: execLocal,
});

/**
 * Reads a directory of `fs` and hands its entries (or the error) to `callback`. On the local disk it goes through
 * Node's callback API, with no promise per directory: a walk reads thousands of them, and that promise was about 8 %
 * of Glob's time on the bench corpus. Any other file system is read through its `readdir`.
 */
export function readDirectoryEntries(
  fs: FileSystem,
  path: string,
  callback: (error: unknown, entries: readonly DirEntry[]) => void,
): void {
  if (fs === localFileSystem) {
    readdirLocal(path, callback);
    return;
  }
  fs.readdir(path).then(
    (entries) => callback(undefined, entries),
    (error: unknown) => callback(error ?? new Error(`readdir '${path}' failed`), []),
  );
}

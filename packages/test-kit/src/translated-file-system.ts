import path from 'node:path';
import type {
  DirEntry,
  ExecOptions,
  FileStats,
  FileSystem,
  FileSystemCapabilities,
  OpenFile,
} from '@kimi-tools/core/fs';
import { localFileSystem } from '@kimi-tools/core/fs';

/**
 * What a backend over SFTP (OpenSSH, protocol 3) can do, for {@link TranslatedFileSystemOptions.capabilities}:
 * atomic replace (`posix-rename`) and exclusive create, but no inode, device, change time or link count, whole-second
 * modification times, process ids of another host, and no name that is not UTF-8.
 */
export const SFTP_CAPABILITIES: Partial<FileSystemCapabilities> = Object.freeze({
  inodes: false,
  ctime: false,
  linkCounts: false,
  localProcesses: false,
  timeResolutionMs: 1000,
  byteNames: false,
});

/** Options of {@link translatedFileSystem}. */
export interface TranslatedFileSystemOptions {
  /**
   * What the backend says it can do, on top of the local disk's. Turning a capability off also takes away what it
   * stands for, as a remote backend lacks it: `inodes` (no `ino`/`dev` in stats), `ctime` (no `ctimeNs`),
   * `linkCounts` (no `nlink`, and `link` fails with ENOSYS), `atomicReplace` (a rename onto an existing file fails
   * with EEXIST, as a plain SFTP rename does), `exec` (no `exec`), and a `timeResolutionMs` of 1000 gives whole-second
   * modification times (no `mtimeNs`).
   */
  capabilities?: Partial<FileSystemCapabilities>;
  /** Where `~` points (default `{virtualRoot}/home`). */
  homeDir?: string;
  /** The file system `localRoot` is on, which every operation is forwarded to (default: the local disk). */
  backend?: FileSystem;
}

/** A {@link translatedFileSystem}: a real backend, and what was asked of it. */
export interface TranslatedFileSystem extends FileSystem {
  /** Every operation asked, in order, as `{name} {virtual path}[ {virtual path}]` (`open /virtual/work/a.txt`). */
  readonly operations: readonly string[];
  /** Every path an operation was asked about, in order (not a symlink's target, nor a program `exec` ran). */
  readonly paths: readonly string[];
}

/** Errors as the local disk gives them: an `Error` with the POSIX `code`. */
function errnoError(code: string, operation: string, filePath: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${operation} '${filePath}'`);
  error.code = code;
  return error;
}

/** The stats of a directory above the virtual root: it exists and holds the next directory down, nothing else. */
function ancestorStats(): FileStats {
  return {
    size: 4096,
    mode: 0o40755,
    mtimeMs: 0,
    isFile: () => false,
    isDirectory: () => true,
    isSymbolicLink: () => false,
    isFIFO: () => false,
    isSocket: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
  };
}

/**
 * A real {@link FileSystem} for tests of the seam: it shows the directory `localRoot` at `virtualRoot` (say
 * `/virtual`), forwards every operation to the local disk (or `options.backend`), and records it. A tool that reached the disk without going
 * through the runtime's file system would look for `/virtual/...` on the real disk and not find it, and every
 * operation that did go through it is in {@link TranslatedFileSystem.operations}. The directories above
 * `virtualRoot` exist and hold only the way down to it; any other path outside it does not exist (ENOENT).
 * Symbolic link targets are translated both ways when absolute. `exec` runs the local program with its working
 * directory translated (its arguments are passed as they are).
 */
export function translatedFileSystem(
  localRoot: string,
  virtualRoot: string,
  options: TranslatedFileSystemOptions = {},
): TranslatedFileSystem {
  const local = options.backend ?? localFileSystem;
  const capabilities: FileSystemCapabilities = Object.freeze({
    ...local.capabilities,
    ...options.capabilities,
  });
  const operations: string[] = [];
  const paths: string[] = [];
  const virtualPrefix = virtualRoot.endsWith('/') ? virtualRoot : `${virtualRoot}/`;
  const localPrefix = localRoot.endsWith(path.sep) ? localRoot : `${localRoot}${path.sep}`;

  const isAncestor = (virtual: string) => virtual === '/' || virtualPrefix.startsWith(`${virtual}/`);
  /** The local path of a virtual one; `undefined` for a path outside the virtual root. */
  const toLocal = (virtual: string): string | undefined => {
    const normal = path.posix.normalize(virtual);
    if (normal === virtualRoot) return localRoot;
    if (!normal.startsWith(virtualPrefix)) return undefined;
    return path.join(localRoot, normal.slice(virtualPrefix.length));
  };
  const toVirtual = (localPath: string): string => {
    if (localPath === localRoot) return virtualRoot;
    if (!localPath.startsWith(localPrefix)) return localPath;
    return path.posix.join(virtualRoot, localPath.slice(localPrefix.length).split(path.sep).join('/'));
  };
  const record = (name: string, ...named: string[]) => {
    operations.push([name, ...named].join(' '));
    if (name === 'symlink') paths.push(...named.slice(1));
    else if (name !== 'exec') paths.push(...named);
  };
  /** The local path of `virtual`, or the error a path outside the virtual root gets. */
  const inside = (operation: string, virtual: string): string => {
    const found = toLocal(virtual);
    if (found === undefined) throw errnoError(isAncestor(virtual) ? 'EPERM' : 'ENOENT', operation, virtual);
    return found;
  };

  const reported = (stats: FileStats): FileStats => {
    const coarse = capabilities.timeResolutionMs >= 1000;
    if (capabilities.inodes && capabilities.ctime && capabilities.linkCounts && !coarse) return stats;
    const tests = {
      isFile: () => stats.isFile(),
      isDirectory: () => stats.isDirectory(),
      isSymbolicLink: () => stats.isSymbolicLink(),
      isFIFO: () => stats.isFIFO(),
      isSocket: () => stats.isSocket(),
      isCharacterDevice: () => stats.isCharacterDevice(),
      isBlockDevice: () => stats.isBlockDevice(),
    };
    return {
      ...tests,
      size: stats.size,
      mode: stats.mode,
      mtimeMs: coarse ? Math.floor(stats.mtimeMs / 1000) * 1000 : stats.mtimeMs,
      ...(coarse || stats.mtimeNs === undefined ? {} : { mtimeNs: stats.mtimeNs }),
      ...(capabilities.ctime && stats.ctimeNs !== undefined ? { ctimeNs: stats.ctimeNs } : {}),
      ...(capabilities.inodes && stats.ino !== undefined ? { ino: stats.ino } : {}),
      ...(capabilities.inodes && stats.dev !== undefined ? { dev: stats.dev } : {}),
      ...(capabilities.linkCounts && stats.nlink !== undefined ? { nlink: stats.nlink } : {}),
      ...(stats.uid === undefined ? {} : { uid: stats.uid }),
      ...(stats.gid === undefined ? {} : { gid: stats.gid }),
    };
  };

  const wrapFile = (file: OpenFile): OpenFile => ({
    read: (buffer, offset, length, position) => file.read(buffer, offset, length, position),
    write: (buffer, offset, length, position) => file.write(buffer, offset, length, position),
    stat: async () => reported(await file.stat()),
    truncate: (length) => file.truncate(length),
    sync: () => file.sync(),
    chmod: (mode) => file.chmod(mode),
    chown: (uid, gid) => file.chown(uid, gid),
    ...(file.setModeAndOwner
      ? {
          setModeAndOwner: (mode: number, owner: { uid: number; gid: number }) =>
            file.setModeAndOwner!(mode, owner),
        }
      : {}),
    close: () => file.close(),
  });

  const statOf = async (name: 'stat' | 'lstat', virtual: string): Promise<FileStats> => {
    record(name, virtual);
    const found = toLocal(virtual);
    if (found === undefined) {
      if (isAncestor(virtual)) return ancestorStats();
      throw errnoError('ENOENT', name, virtual);
    }
    return reported(await local[name](found));
  };

  const translated: TranslatedFileSystem = {
    name: 'translated',
    platform: local.platform,
    homeDir: options.homeDir ?? path.posix.join(virtualRoot, 'home'),
    capabilities,
    operations,
    paths,
    stat: (virtual) => statOf('stat', virtual),
    lstat: (virtual) => statOf('lstat', virtual),
    async realpath(virtual) {
      record('realpath', virtual);
      if (toLocal(virtual) === undefined && isAncestor(virtual)) return path.posix.normalize(virtual);
      return toVirtual(await local.realpath(inside('realpath', virtual)));
    },
    async readlink(virtual) {
      record('readlink', virtual);
      const target = await local.readlink(inside('readlink', virtual));
      return path.isAbsolute(target) ? toVirtual(target) : target;
    },
    async readdir(virtual): Promise<DirEntry[]> {
      record('readdir', virtual);
      if (toLocal(virtual) === undefined && isAncestor(virtual)) {
        const next = virtualPrefix.slice(virtual === '/' ? 1 : virtual.length + 1).split('/')[0] ?? '';
        return [{ name: next, ...ancestorStats() }];
      }
      return local.readdir(inside('readdir', virtual));
    },
    async open(virtual, mode) {
      record('open', virtual);
      return wrapFile(await local.open(inside('open', virtual), mode));
    },
    async create(virtual, mode) {
      record('create', virtual);
      return wrapFile(await local.create(inside('create', virtual), mode));
    },
    async rename(from, to) {
      record('rename', from, to);
      const target = inside('rename', to);
      if (!capabilities.atomicReplace) {
        const existing = await local.lstat(target).catch(() => undefined);
        if (existing) throw errnoError('EEXIST', 'rename', to);
      }
      await local.rename(inside('rename', from), target);
    },
    async unlink(virtual) {
      record('unlink', virtual);
      await local.unlink(inside('unlink', virtual));
    },
    async mkdir(virtual, mkdirOptions) {
      record('mkdir', virtual);
      await local.mkdir(inside('mkdir', virtual), mkdirOptions);
    },
    async rmdir(virtual) {
      record('rmdir', virtual);
      await local.rmdir(inside('rmdir', virtual));
    },
    async chmod(virtual, mode) {
      record('chmod', virtual);
      await local.chmod(inside('chmod', virtual), mode);
    },
    async utimes(virtual, atime, mtime) {
      record('utimes', virtual);
      await local.utimes(inside('utimes', virtual), atime, mtime);
    },
    async symlink(target, virtual) {
      record('symlink', target, virtual);
      const localTarget = path.posix.isAbsolute(target) ? (toLocal(target) ?? target) : target;
      await local.symlink(localTarget, inside('symlink', virtual));
    },
    async link(existing, virtual) {
      record('link', existing, virtual);
      if (!capabilities.linkCounts) throw errnoError('ENOSYS', 'link', virtual);
      await local.link(inside('link', existing), inside('link', virtual));
    },
    async syncDirectory(virtual) {
      record('syncDirectory', virtual);
      await local.syncDirectory(inside('syncDirectory', virtual));
    },
  };
  if (capabilities.exec && local.exec) {
    const exec = local.exec;
    translated.exec = (command: string, args: readonly string[], execOptions: ExecOptions = {}) => {
      record('exec', command);
      const cwd = execOptions.cwd === undefined ? undefined : inside('exec', execOptions.cwd);
      return exec(command, args, { ...execOptions, cwd });
    };
  }
  return translated;
}

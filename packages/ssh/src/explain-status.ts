import { posix } from 'node:path';
import type { Attributes } from 'ssh2';
import { nameTooLong } from './path-limits.js';
import { FileType, isFileType } from '@kimi-tools/core/fs';
import { SftpStatus, SftpStatusError, type SftpSession } from './sftp-session.js';

// SFTP v3 has five statuses for every errno: OpenSSH's sftp-server sends NO_SUCH_FILE for ENOENT, ENOTDIR and ELOOP,
// and FAILURE for EEXIST, EISDIR, ENOTEMPTY, ENOSPC, EXDEV and the rest. Core decides on the POSIX code alone, so on
// those two statuses the backend asks the server what the path is (only on the failure path: a success costs nothing)
// and names the code the system call gave.

/** The most symbolic links a path resolution follows, as Linux (`ELOOP` beyond). */
const MAX_SYMLINKS = 40;

/** The calls made on an open file's handle rather than on a path. */
const HANDLE_CALLS = new Set(['read', 'write', 'fstat', 'ftruncate', 'fsync', 'fchmod', 'fchown', 'close']);

/** The POSIX code of a status the server answered `syscall` on `paths` with. */
export async function errnoCodeOf(
  error: SftpStatusError,
  syscall: string,
  paths: readonly string[],
  session: SftpSession,
): Promise<string> {
  switch (error.status) {
    case SftpStatus.NO_SUCH_FILE:
      return explainMissing(syscall, paths, session);
    case SftpStatus.PERMISSION_DENIED:
      // EPERM where Linux gives it: a change of owner.
      return syscall === 'fchown' ? 'EPERM' : 'EACCES';
    case SftpStatus.BAD_MESSAGE:
      // OpenSSH's sftp-server sends it for ENAMETOOLONG and EINVAL alike: a name too long for Linux is the first.
      return paths.some(nameTooLong) ? 'ENAMETOOLONG' : 'EINVAL';
    case SftpStatus.OP_UNSUPPORTED:
      return 'ENOSYS';
    case SftpStatus.FAILURE:
      return explainFailure(syscall, paths, session);
    default:
      return 'EIO';
  }
}

/** NO_SUCH_FILE: ENOENT, or ENOTDIR / ELOOP when that is what resolving the path runs into. */
async function explainMissing(
  syscall: string,
  paths: readonly string[],
  session: SftpSession,
): Promise<string> {
  // On a handle it is the descriptor that is wrong (written while open for reading): EBADF.
  if (HANDLE_CALLS.has(syscall)) return 'EBADF';
  const [path = '/', dest] = paths;
  if (syscall === 'scandir' || syscall === 'rmdir') {
    const attrs = await probe(syscall === 'rmdir' ? session.lstat(path) : session.stat(path));
    if (attrs && !isFileType(attrs.mode, FileType.DIRECTORY)) return 'ENOTDIR';
  }
  if (syscall === 'rename' && dest !== undefined) {
    const source = await resolveFailure(path, false, session);
    if (source) return source;
    // rename(2)'s ENOTDIR (a directory onto a file) comes as NO_SUCH_FILE too.
    const conflict = typeConflict(
      ...(await Promise.all([probe(session.lstat(path)), probe(session.lstat(dest))])),
    );
    return conflict ?? (await resolveFailure(posix.dirname(dest), true, session)) ?? 'ENOENT';
  }
  if (syscall === 'symlink' || syscall === 'open' || syscall === 'create' || syscall === 'mkdir') {
    // The path itself may be missing as it should: what failed is a parent.
    const parent = await resolveFailure(posix.dirname(path), true, session);
    if (parent) return parent;
  }
  const followLast = !['lstat', 'readlink', 'unlink', 'rmdir', 'symlink', 'mkdir', 'create'].includes(
    syscall,
  );
  return (await resolveFailure(path, followLast, session)) ?? 'ENOENT';
}

/**
 * Why resolving `path` fails, as the kernel would say (`ENOENT`, `ENOTDIR`, `ELOOP`), or `undefined` when it
 * resolves. The common case (a missing file in a directory that exists) costs one round trip of two requests.
 */
async function resolveFailure(
  path: string,
  followLast: boolean,
  session: SftpSession,
): Promise<string | undefined> {
  const [parent, self] = await Promise.all([
    probe(session.stat(posix.dirname(path))),
    probe(session.lstat(path)),
  ]);
  const mustBeDirectory = path.length > 1 && path.endsWith('/');
  if (parent && isFileType(parent.mode, FileType.DIRECTORY)) {
    if (!self) return 'ENOENT';
    if (!isFileType(self.mode, FileType.SYMBOLIC_LINK) && !mustBeDirectory) return undefined;
  }
  return walk(path, followLast || mustBeDirectory, session);
}

/**
 * Resolves `path` component by component as the kernel does (symbolic links followed, at most {@link MAX_SYMLINKS}),
 * with every remaining prefix asked for at once.
 */
async function walk(path: string, followLast: boolean, session: SftpSession): Promise<string | undefined> {
  let links = 0;
  const seen = new Set<string>();
  let base = '/';
  let pending = components(path);
  for (;;) {
    const prefixes: string[] = [];
    let prefix = base;
    for (const name of pending) {
      prefix = name === '..' ? posix.dirname(prefix) : posix.join(prefix, name);
      prefixes.push(prefix);
    }
    const found = await Promise.all(prefixes.map((each) => probe(session.lstat(each))));
    let next: string[] | undefined;
    for (let index = 0; index < pending.length; index++) {
      const attrs = found[index];
      const last = index === pending.length - 1;
      if (!attrs) return 'ENOENT';
      if (isFileType(attrs.mode, FileType.SYMBOLIC_LINK) && (!last || followLast)) {
        if (++links > MAX_SYMLINKS) return 'ELOOP';
        const link = prefixes[index]!;
        // The same link with the same rest to resolve again is a cycle: it would end in ELOOP, 40 links later.
        const state = `${link}\0${pending.slice(index + 1).join('/')}`;
        if (seen.has(state)) return 'ELOOP';
        seen.add(state);
        const target = await session.readlink(link);
        // Every component before the link is a real directory, so the link's own directory is its lexical parent.
        base = target.startsWith('/') ? '/' : posix.dirname(link);
        next = [...components(target), ...pending.slice(index + 1)];
        break;
      }
      if (!last && !isFileType(attrs.mode, FileType.DIRECTORY)) return 'ENOTDIR';
      if (last && followLast && path.endsWith('/') && !isFileType(attrs.mode, FileType.DIRECTORY))
        return 'ENOTDIR';
    }
    if (!next) return undefined;
    pending = next;
    if (pending.length === 0) return undefined;
  }
}

function components(path: string): string[] {
  return path.split('/').filter((name) => name !== '' && name !== '.');
}

/** FAILURE: the code the call's own rules leave, from what the server says the paths are now. */
async function explainFailure(
  syscall: string,
  paths: readonly string[],
  session: SftpSession,
): Promise<string> {
  const [path = '/', dest] = paths;
  switch (syscall) {
    case 'open':
      // Opening a directory for writing, or a file on a file system mounted read-only.
      if (isDirectory(await probe(session.stat(path)))) return 'EISDIR';
      return (await refusalAt(path, session)) === 'EROFS' ? 'EROFS' : 'EIO';
    case 'create':
    case 'mkdir':
    case 'symlink': {
      if (await probe(session.lstat(path))) return 'EEXIST';
      return (await refusalAt(posix.dirname(path), session)) ?? 'EIO';
    }
    // Linux asks for a writable mount before it looks at what is removed.
    case 'unlink':
      if ((await refusalAt(posix.dirname(path), session)) === 'EROFS') return 'EROFS';
      return isDirectory(await probe(session.lstat(path))) ? 'EISDIR' : 'EIO';
    case 'rmdir': {
      if ((await refusalAt(posix.dirname(path), session)) === 'EROFS') return 'EROFS';
      const attrs = await probe(session.lstat(path));
      if (attrs && !isDirectory(attrs)) return 'ENOTDIR';
      return attrs ? 'ENOTEMPTY' : 'EIO';
    }
    case 'rename': {
      if (dest === undefined) return 'EIO';
      const conflict = typeConflict(
        ...(await Promise.all([probe(session.lstat(path)), probe(session.lstat(dest))])),
      );
      if (conflict) return conflict;
      if (await differentFileSystems(path, posix.dirname(dest), session)) return 'EXDEV';
      return (await refusalAt(posix.dirname(dest), session)) ?? 'EIO';
    }
    case 'write':
    case 'fsync':
    case 'ftruncate':
    case 'close':
      return (await refusalAt(posix.dirname(path), session)) ?? 'EIO';
    case 'chmod':
    case 'utime':
      return (await refusalAt(path, session)) === 'EROFS' ? 'EROFS' : 'EIO';
    default:
      return 'EIO';
  }
}

/** What rename(2) says when the source and the target cannot replace each other. */
function typeConflict(from: Attributes | undefined, to: Attributes | undefined): string | undefined {
  if (!from || !to) return undefined;
  if (isDirectory(from)) return isDirectory(to) ? 'ENOTEMPTY' : 'ENOTDIR';
  return isDirectory(to) ? 'EISDIR' : undefined;
}

function isDirectory(attrs: Attributes | undefined): boolean {
  return attrs !== undefined && isFileType(attrs.mode, FileType.DIRECTORY);
}

/** `ST_RDONLY` of `statvfs@openssh.com`'s flags: the file system is mounted read-only. */
const READ_ONLY_FLAG = 0x1;

/**
 * Why the file system holding `path` takes no change (`statvfs@openssh.com`): mounted read-only (`EROFS`), or no block
 * or no inode left (`ENOSPC`); `undefined` when it says neither, or cannot be asked.
 */
async function refusalAt(path: string, session: SftpSession): Promise<'EROFS' | 'ENOSPC' | undefined> {
  if (!session.extensions.has('statvfs@openssh.com')) return undefined;
  const space = await probe(session.statvfs(path));
  if (space === undefined) return undefined;
  if ((space.f_flag & READ_ONLY_FLAG) !== 0) return 'EROFS';
  return space.f_bavail === 0 || space.f_favail === 0 ? 'ENOSPC' : undefined;
}

async function differentFileSystems(a: string, b: string, session: SftpSession): Promise<boolean> {
  if (!session.extensions.has('statvfs@openssh.com')) return false;
  const [first, second] = await Promise.all([probe(session.statvfs(a)), probe(session.statvfs(b))]);
  return first !== undefined && second !== undefined && first.f_sid !== second.f_sid;
}

/** The answer of a probe, or `undefined` when the server refused it (a lost connection still rejects). */
async function probe<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof SftpStatusError) return undefined;
    throw error;
  }
}

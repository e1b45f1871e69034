/** What each code the backend gives means, worded as Node's own errors word it. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  EEXIST: 'file already exists',
  ENOTEMPTY: 'directory not empty',
  ELOOP: 'too many symbolic links encountered',
  ENAMETOOLONG: 'name too long',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EINVAL: 'invalid argument',
  ENOSYS: 'function not implemented',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EXDEV: 'cross-device link not permitted',
  ENXIO: 'no such device or address',
  EAGAIN: 'resource temporarily unavailable',
  EBADF: 'bad file descriptor',
  EIO: 'i/o error (the SFTP server reported a failure without saying which)',
};

/** The system call an operation of the backend is named after in messages, where the two differ. */
const SYSCALLS: Readonly<Record<string, string>> = { create: 'open' };

/**
 * An error as Node's `fs` makes them: `CODE: description, syscall 'path'` (`-> 'dest'` for two paths), with `code`,
 * `syscall`, `path` and `dest` set. `detail` replaces the description where more is known.
 */
export function errnoError(code: string, operation: string, paths: readonly string[], detail?: string) {
  const syscall = SYSCALLS[operation] ?? operation;
  const [path, dest] = paths;
  const where = [path, dest]
    .filter((value) => value !== undefined)
    .map((value) => `'${value}'`)
    .join(' -> ');
  const error: NodeJS.ErrnoException = new Error(
    `${code}: ${detail ?? DESCRIPTIONS[code] ?? 'error'}, ${syscall}${where ? ` ${where}` : ''}`,
  );
  error.code = code;
  error.syscall = syscall;
  if (path !== undefined) error.path = path;
  if (dest !== undefined) (error as { dest?: string }).dest = dest;
  return error;
}

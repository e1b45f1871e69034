import { nodeOs } from '../load-on-use.js';

/** The codes the memory backend rejects with, and the words Node's own errors use for them. */
const DESCRIPTIONS = {
  EBADF: 'bad file descriptor',
  EBUSY: 'resource busy or locked',
  EEXIST: 'file already exists',
  EINVAL: 'invalid argument',
  EISDIR: 'illegal operation on a directory',
  ELOOP: 'too many symbolic links encountered',
  ENAMETOOLONG: 'name too long',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  ENOTEMPTY: 'directory not empty',
  EPERM: 'operation not permitted',
} as const;

export type MemoryErrorCode = keyof typeof DESCRIPTIONS;

/**
 * An error shaped as Node's `fs` errors are (`code`, `errno`, `syscall`, `path`, `dest`, and the message
 * `ENOENT: no such file or directory, open '/a'`), so that a host cannot tell the memory backend's errors from the
 * local disk's.
 */
export function memoryError(
  code: MemoryErrorCode,
  syscall: string,
  path: string,
  dest?: string,
): NodeJS.ErrnoException & { dest?: string } {
  const where = dest === undefined ? `'${path}'` : `'${path}' -> '${dest}'`;
  const error: NodeJS.ErrnoException & { dest?: string } = new Error(
    `${code}: ${DESCRIPTIONS[code]}, ${syscall} ${where}`,
  );
  error.code = code;
  error.errno = -nodeOs().constants.errno[code];
  error.syscall = syscall;
  error.path = path;
  if (dest !== undefined) error.dest = dest;
  return error;
}

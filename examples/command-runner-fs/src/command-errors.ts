import type { CommandResult } from './command-runner.js';

/** What `strerror` prints for each errno core decides on (coreutils and the shell print it after a colon). */
const CODES: readonly [string, string][] = [
  ['No such file or directory', 'ENOENT'],
  ['Directory nonexistent', 'ENOENT'],
  ['File exists', 'EEXIST'],
  ['cannot overwrite non-directory', 'ENOTDIR'],
  ['Not a directory', 'ENOTDIR'],
  ['Is a directory', 'EISDIR'],
  ['cannot overwrite directory', 'EISDIR'],
  ['Directory not empty', 'ENOTEMPTY'],
  ['Too many levels of symbolic links', 'ELOOP'],
  ['Permission denied', 'EACCES'],
  ['Operation not permitted', 'EPERM'],
  ['No space left on device', 'ENOSPC'],
  ['Invalid argument', 'EINVAL'],
  ['a subdirectory of itself', 'EINVAL'],
  ['hard link not allowed for directory', 'EPERM'],
  ['Invalid cross-device link', 'EXDEV'],
  ['File name too long', 'ENAMETOOLONG'],
];

/** An error as Node's `fs` would throw it: `code`, and a message `CODE: text, op 'path'`. */
export function errnoError(code: string, text: string, op: string, path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${text}, ${op} '${path}'`);
  error.code = code;
  error.path = path;
  error.syscall = op;
  return error;
}

/** The errno a failed command's message names (`EIO` when it names none core knows). */
export function failureOf(result: CommandResult, op: string, path: string): NodeJS.ErrnoException {
  const message = result.stderr.trim();
  const found = CODES.find(([text]) => message.includes(text));
  return errnoError(found?.[1] ?? 'EIO', found?.[0] ?? (message || `exit ${result.code}`), op, path);
}

/** The `code` of a Node.js system error (`ENOENT`, `EEXIST`...), or `undefined` for anything else thrown. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` is a system error with one of `codes`. */
export function hasErrno(error: unknown, ...codes: readonly string[]): boolean {
  const code = errnoCode(error);
  return code !== undefined && codes.includes(code);
}

/**
 * Whether `error` says a path does not exist: ENOENT, ENOTDIR (a parent is a file, so it cannot exist), or
 * ENAMETOOLONG (a name longer than the file system takes, which no file can have).
 */
export function isMissingPathError(error: unknown): boolean {
  return hasErrno(error, 'ENOENT', 'ENOTDIR', 'ENAMETOOLONG');
}

/** A system-style error (`code` set, message `CODE: text`), for failures that should read like Node's own. */
export function errnoError(code: string, text: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${text}`);
  error.code = code;
  return error;
}

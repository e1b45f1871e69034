/**
 * One word for a POSIX shell, whatever it holds: single quotes keep every character as it is but the single quote
 * itself, which closes the quotes, is escaped, and reopens them (`it's` → `'it'\''s'`).
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` can be a shell variable (a name the remote shell could not set is refused, never mangled). */
export function isShellVariableName(name: string): boolean {
  return ENV_NAME.test(name);
}

// The server binary's vocabulary: its command-line mistakes, its instructions and its approval feedback, once. Free
// of @kimi-tools/core and the tools on purpose: the command line reports its mistakes before the tools are loaded.

/** What the binary's instructions say in `--approval reject` mode, where only the read tools are listed. */
export const READ_ONLY_INSTRUCTIONS =
  'This server is read-only (--approval reject): it offers no tool that writes or edits files.';

/** Rejection feedback of the binary in `--approval reject` mode (no write tool is listed; a caller of its own may try). */
export const READ_ONLY_FEEDBACK =
  'kimi-tools-mcp runs read-only (--approval reject): files cannot be written or edited in this session.';

/** What the binary prints for a command-line mistake. */
export function cliErrorText(message: string): string {
  return `kimi-tools-mcp: ${message}\nRun kimi-tools-mcp --help for usage.\n`;
}

/** A flag without its value. */
export function needsValueMessage(flag: string): string {
  return `${flag} needs a value.`;
}

/** An `--approval` mode the binary does not know. */
export function unknownApprovalModeMessage(value: string, modes: readonly string[]): string {
  return `Unknown approval mode "${value}": use one of ${modes.join(', ')}.`;
}

/** A flag the binary does not know. */
export function unknownOptionMessage(flag: string): string {
  return `Unknown option ${flag}.`;
}

/** `--identity` or `--host-key` given without `--ssh`. */
export function needsSshMessage(flag: string): string {
  return `${flag} is an option of --ssh: give --ssh [USER@]HOST[:PORT] too.`;
}

/** A relative directory with `--ssh`: relative to what, on the host? */
export function relativeRemoteDirectoryMessage(label: string, dir: string): string {
  return `With --ssh, ${label} is a directory on the host: give its absolute path, not ${dir}.`;
}

/** The workspace on the host cannot be served: it cannot be reached, or is not a directory there. */
export function remoteWorkspaceMessage(destination: string, dir: string, error: string): string {
  return `cannot serve ${dir} on ${destination}: ${error}`;
}

/** No work dir on the command line. */
export const WORKDIR_MISSING_MESSAGE = 'WORKDIR is missing.';

/**
 * A work dir given as the empty string (a client's unset variable, `"${workspaceFolder}"`): it would resolve to the
 * current directory, which the user never named.
 */
export const WORKDIR_EMPTY_MESSAGE = 'WORKDIR is empty: give the path of the project directory.';

/** More than one work dir on the command line. */
export function tooManyWorkdirsMessage(given: readonly string[]): string {
  return `Expected one WORKDIR, got ${given.length}: ${given.join(' ')}.`;
}

/** A directory given on the command line that does not exist. */
export function missingDirectoryMessage(label: string, dir: string): string {
  return `${label} ${dir} does not exist.`;
}

/** A directory given on the command line that cannot be looked at (`error`: why). */
export function unreadableStatMessage(label: string, dir: string, error: string): string {
  return `${label} ${dir} cannot be read: ${error}`;
}

/** A path given as a directory that is something else. */
export function notADirectoryMessage(label: string, dir: string): string {
  return `${label} ${dir} is not a directory.`;
}

/** A directory the binary may not list or enter (`error`: why). */
export function notReadableDirectoryMessage(label: string, dir: string, error: string): string {
  return `${label} ${dir} is not readable: ${error}`;
}

/** A `--permissions` file that holds an invalid rule (`problem`: `line {n}: invalid permission rule ...`). */
export function invalidPermissionsFileMessage(file: string, problem: string): string {
  return `--permissions ${file}: ${problem}`;
}

/** Answers a request too large to read (JSON-RPC `Invalid Request`); the session goes on. */
export function requestTooLargeMessage(bytes: number, limit: number): string {
  return `The request is ${bytes} bytes, over the ${limit} bytes kimi-tools-mcp reads in one message, so it was not read and nothing was done. Send less at once: write a large file in parts (WriteFile with mode append).`;
}

// The MCP adapter's error vocabulary: every brief and error message it words, once. Free of @kimi-tools/core on
// purpose: the command line reports its mistakes before the tools are loaded.

const CANNOT_ASK =
  'This MCP client does not support elicitation, so the user could not be asked to approve the change, and ' +
  'nothing was written.';

/** Rejection feedback of the default fallback, used when the client cannot show an approval form. */
export const NO_ELICITATION_FEEDBACK = `${CANNOT_ASK} The server must be configured to allow changes without asking.`;

/** Rejection feedback of the binary in `--approval elicit` mode when the client cannot show an approval form. */
export const CLI_NO_ELICITATION_FEEDBACK = `${CANNOT_ASK} To allow changes without asking, the user can restart kimi-tools-mcp with --approval yolo.`;

/** What the binary's instructions say in `--approval reject` mode, where only the read tools are listed. */
export const READ_ONLY_INSTRUCTIONS =
  'This server is read-only (--approval reject): it offers no tool that writes or edits files.';

/** Rejection feedback of the binary in `--approval reject` mode (no write tool is listed; a caller of its own may try). */
export const READ_ONLY_FEEDBACK =
  'kimi-tools-mcp runs read-only (--approval reject): files cannot be written or edited in this session.';

/** What the server's `onerror` hears when an approval form got no usable answer (`why`: the error or the answer). */
export function noValidAnswerMessage(why: string): string {
  return `The approval form got no valid answer, so the change was rejected: ${why}`;
}

/** Why an accepted approval form is refused (what the client sent is not quoted). */
export const MALFORMED_ANSWER_TEXT = 'the form was accepted without one of the decisions it offers.';

/** Ends a text cut to fit in one MCP message (`omitted`: how many UTF-16 characters were left out). */
export function cutMarker(omitted: number): string {
  return `\n[… ${omitted} more characters cut: the text does not fit in one MCP message]`;
}

/** Sent instead of an image or video too large for one MCP message. */
export function mediaTooLargeText(kind: 'image' | 'video', bytes: number, limit: number): string {
  return `The ${kind} (${bytes} bytes) was not sent: it does not fit in one MCP message (at most ${limit} bytes).`;
}

/** A call to a tool the server does not offer. */
export function unknownToolMessage(name: string, available: readonly string[]): string {
  return `Unknown tool: ${name}. Available tools: ${available.join(', ')}.`;
}

/** `createMcpServer` was given two tools of one name. */
export function duplicateToolMessage(name: string): string {
  return `createMcpServer: two tools are named "${name}".`;
}

/** `createMcpServer` was given a tool whose parameters are not an object schema. */
export function notObjectSchemaMessage(name: string): string {
  return `createMcpServer: the parameters of "${name}" must be a JSON Schema of type "object".`;
}

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

/** No work dir on the command line. */
export const WORKDIR_MISSING_MESSAGE = 'WORKDIR is missing.';

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

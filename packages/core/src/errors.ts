import {
  LIST_SEPARATORS,
  nameSeparators,
  quotedPath,
  shownArgument,
  shownPath,
  spelledOut,
} from './text/escape-for-display.js';

// Core's error vocabulary: every brief and every error message core words is here, once. Tools share the briefs
// and the wording they have in common (`Briefs`, `notReadableMessage`, `toolFailedMessage`) through the toolkit.

/** Briefs of the errors core builds, and those several tools share: stable identifiers a host may match on. */
export const Briefs = {
  invalidArguments: 'Invalid arguments',
  toolNotFound: 'Tool not found',
  toolFailed: 'Tool failed',
  rejectedByUser: 'Rejected by user',
  invalidApprovalAnswer: 'Invalid approval answer',
  emptyPath: 'Empty file path',
  invalidPath: 'Invalid path',
  outsideWorkspace: 'Outside workspace',
  accessDenied: 'Access denied',
  fileNotFound: 'File not found',
  unsupportedEncoding: 'Unsupported encoding',
  fileNotRead: 'File not read',
  fileModified: 'File modified',
  fileNotReadable: 'File not readable',
  unsupportedFileType: 'Unsupported file type',
  fileTooLarge: 'File too large',
  readFailed: 'Failed to read file',
  sensitiveFile: 'Sensitive file',
  deniedByRule: 'Denied by permission rule',
} as const;

/** The brief of a rejected call: `Rejected by user`, or `Rejected: {feedback}`. */
export type RejectedBrief = typeof Briefs.rejectedByUser | `Rejected: ${string}`;

/** Every brief core can put on a result (tools add their own to this). */
export type CoreBrief = (typeof Briefs)[keyof typeof Briefs] | RejectedBrief;

/** The briefs the path policy's refusals carry. */
export type PathBrief =
  | typeof Briefs.emptyPath
  | typeof Briefs.invalidPath
  | typeof Briefs.outsideWorkspace
  | typeof Briefs.accessDenied;

/** The brief of a call a permission rule refuses (docs/permissions.md). */
export type PermissionBrief = typeof Briefs.deniedByRule;

/** The brief of a change whose approval answers could not be applied (docs/approval.md#answers-refused). */
export type InvalidAnswerBrief = typeof Briefs.invalidApprovalAnswer;

/** The briefs of the read-before-write refusals. */
export type ReadStateBrief = typeof Briefs.fileNotRead | typeof Briefs.fileModified;

// Results

/** The brief of a call the user rejected with `feedback`. */
export function rejectedBrief(feedback: string): `Rejected: ${string}` {
  return `Rejected: ${feedback}`;
}

/** The message of a call the user rejected, with their feedback when they gave any. */
export function rejectedMessage(feedback: string | undefined): string {
  return feedback
    ? `The tool call is rejected by the user. User feedback: ${feedback}`
    : 'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.';
}

/** The message of arguments the tool's schema refused (`issues` as `formatIssues` words them). */
export function invalidArgumentsMessage(issues: string): string {
  return `Error validating JSON arguments: ${issues}`;
}

/** The issue of arguments that throw when read (a getter or a Proxy that throws): `arguments: cannot be read ({error})`. */
export function unreadableArgumentsIssue(error: string): string {
  return `arguments: cannot be read (${error})`;
}

/** A tool set asked for a tool it does not hold: `Tool \`{name}\` not found. Available tools: {names}.` */
export function toolNotFoundMessage(name: string, available: readonly string[]): string {
  return `Tool \`${name}\` not found. Available tools: ${available.join(', ')}.`;
}

/** The message of a tool call that threw: `Failed to run {tool}. Error: {error}` (tools may word their own). */
export function toolFailedMessage(toolName: string, error: string): string {
  return `Failed to run ${toolName}. Error: ${error}`;
}

// Paths and files

/** An empty path. */
export const EMPTY_PATH_MESSAGE = 'File path cannot be empty.';

/** A path refused before any file-system access (NUL byte, UNC, drive-relative). */
export function invalidPathMessage(input: string): string {
  return `${quotedPath(input)} is not a valid path.`;
}

/** A file tool's path that ends in a separator, so it names a directory (docs/paths.md). */
export function directoryPathMessage(input: string): string {
  return `${quotedPath(input)} ends with a path separator, so it names a directory, not a file.`;
}

/** A relative path that resolves outside the workspace. */
export function notAbsoluteMessage(shown: string, verb: string): string {
  return (
    `${quotedPath(shown)} is not an absolute path. ` +
    `You must provide an absolute path to ${verb} a file outside the working directory.`
  );
}

/** A path outside the workspace when the runtime refuses those. */
export function outsideWorkspaceMessage(shown: string): string {
  return `${quotedPath(shown)} is outside the workspace.`;
}

/** A search path outside the workspace (Glob, Grep). */
export function searchOutsideMessage(input: string): string {
  return (
    `${outsideWorkspaceMessage(input)} ` +
    'You can only search within the working directory and additional directories.'
  );
}

/** A path the runtime's deny globs refuse. */
export function deniedMessage(shown: string): string {
  return `${quotedPath(shown)} is denied by the workspace policy.`;
}

/** A file or directory that does not exist; `hint` is a ` Did you mean: ...?` sentence or empty. */
export function notFoundMessage(shown: string, hint = ''): string {
  return `${quotedPath(shown)} does not exist.${hint}`;
}

/**
 * The sentence that offers similar names after a not-found message. A name `looksAlike` says reads as the one asked
 * for (the same letters encoded otherwise, NFC and NFD; or with an invisible character more or less) is
 * {@link spelledOut}, so the model sees what differs.
 */
export function didYouMeanHint(
  names: readonly string[],
  looksAlike: (name: string) => boolean = () => false,
): string {
  const shown = names.map((name) => (looksAlike(name) ? spelledOut(name) : shownPath(name, LIST_SEPARATORS)));
  return names.length > 0 ? ` Did you mean: ${shown.join(', ')}?` : '';
}

/** A directory, FIFO, device... where a regular file is needed. */
export function notAFileMessage(shown: string): string {
  return `${quotedPath(shown)} is not a file.`;
}

/** A file that cannot be created: `part`, a part of its path above it, is not a directory. */
export function pathThroughFileMessage(shown: string, part: string): string {
  return `${quotedPath(shown)} cannot be created: ${quotedPath(part)} is not a directory.`;
}

/** A file the sensitive-file rules refuse (docs/paths.md#sensitive-files). */
export function sensitiveFileMessage(shown: string): string {
  return `${quotedPath(shown)} appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.`;
}

/** A file that decodes in no supported encoding, so it is never rewritten. */
export function unsupportedEncodingMessage(shown: string): string {
  return `${quotedPath(shown)} is not a valid text file in a supported encoding; it was not changed.`;
}

/**
 * A file a tool cannot make sense of (ReadFile: not text; ReadMediaFile: not an image or a video; `asWhat` says as
 * what, e.g. `as an image or video file`).
 */
export function notReadableMessage(shown: string, asWhat?: string): string {
  return (
    `${quotedPath(shown)} seems not readable${asWhat ? ` ${asWhat}` : ''}. You may need to read it with proper shell ` +
    'commands, Python tools or MCP tools if available. If you read/operate it with Python, you MUST ensure that ' +
    'any third-party packages are installed in a virtual environment (venv).'
  );
}

/**
 * A sensitive file a write tool will not change (docs/paths.md#sensitive-files): refused before it is read, so no
 * answer can depend on what it holds.
 */
export function sensitiveEditMessage(shown: string): string {
  return `${quotedPath(shown)} appears to contain secrets (matched sensitive file pattern). Editing this file is blocked to protect credentials.`;
}

/** A failure line puts `. Error: ` after its name: a name holding it is shown quoted (docs/paths.md#names-in-a-line). */
const FAILURE_SEPARATORS = nameSeparators('. Error: ');

/**
 * The message of a tool that hit an unexpected error on `path`: `Failed to {action} {path}. Error: {error}`, where
 * `action` is what it was doing (`read`, `write to`).
 */
export function failedOnPathMessage(action: string, path: string, error: string): string {
  return `Failed to ${action} ${shownPath(path, FAILURE_SEPARATORS)}. Error: ${error}`;
}

/**
 * The message of a tool that hit an unexpected error on an argument that is not a path (Glob's pattern): `Failed to
 * {action} {argument}. Error: {error}`, the argument shown as {@link shownArgument} shows it.
 */
export function failedOnArgumentMessage(action: string, argument: string, error: string): string {
  return `Failed to ${action} ${shownArgument(argument, FAILURE_SEPARATORS)}. Error: ${error}`;
}

/** The failure message of a tool that reads a file (ReadFile, ReadMediaFile) and hit an unexpected error. */
export function readFailedMessage(path: string, error: string): string {
  return failedOnPathMessage('read', path, error);
}

/** A file that was never read in this session. */
export function notReadMessage(shown: string): string {
  return `${quotedPath(shown)} has not been read yet. Read it first before writing to it.`;
}

/** A file that changed since it was read. */
export function modifiedMessage(shown: string): string {
  return (
    `${quotedPath(shown)} has been modified since it was last read, either by the user or by another process. ` +
    'Read it again before writing to it.'
  );
}

/** A path a `deny` permission rule refuses; `rule` as the user wrote it (docs/permissions.md). */
export function deniedByRuleMessage(shown: string, rule: string): string {
  return `${quotedPath(shown)} is denied by the permission rule \`${rule}\`.`;
}

// Thrown errors (programming errors, and failures that become a tool's "Failed to ..." message)

/** Thrown inside `withFileLock` when the lock was broken (its holder was suspended past `staleMs`) before a write. */
export class FileLockLostError extends Error {
  constructor(readonly filePath: string) {
    super(
      `The lock on ${shownPath(filePath)} was broken while it was held (the writer was suspended too long); nothing was written.`,
    );
    this.name = 'FileLockLostError';
  }
}

/** The message of the error `withFileLock` throws when another writer holds the lock past the timeout. */
export function fileLockedMessage(filePath: string, lockPath: string): string {
  return `${shownPath(filePath)} is locked by another writer (${shownPath(lockPath)}); try again later.`;
}

/** The text of the EISDIR error for a target that exists but is not a regular file. */
export function notRegularFileErrnoText(filePath: string): string {
  return `not a regular file, open '${filePath}'`;
}

/** The text of the ENOSYS error of an atomic write on a backend whose rename cannot replace a file atomically. */
export function atomicReplaceUnavailableErrnoText(backend: string): string {
  return `the ${backend} file system cannot replace a file atomically, and files are never written in place`;
}

/**
 * What follows the transport's error when the rename of a temp file over its target lost its answer and whether it was
 * made could not be told (docs/writing.md#atomic-writes).
 */
export function renameOutcomeUnknownText(target: string, temp: string): string {
  return `whether '${target}' was replaced is unknown: if it was not, its new content is in '${temp}'`;
}

/**
 * What follows the error of a rewrite in place (a file with several hard links) that failed part way when writing its
 * old bytes back failed too (docs/writing.md#symlinks-and-hard-links).
 */
export function inPlaceUnrestoredText(target: string): string {
  return `'${target}' could not be restored and may hold part of its new content`;
}

/** The text of the ELOOP error for a symlink chain that does not end. */
export function tooManyLinksErrnoText(filePath: string): string {
  return `too many symbolic links, open '${filePath}'`;
}

/** The message of the AbortError a line scan stops with. */
export const ABORTED_MESSAGE = 'The operation was aborted.';

/** The message of replacements given out of order, overlapping or beyond the text. */
export const BAD_REPLACEMENTS_MESSAGE =
  'Replacements must be sorted, must not overlap and must lie within the text.';

/** The message of `FileHistory.restore` for a version it does not have. */
export function noSavedVersionMessage(filePath: string, version: number | undefined): string {
  const what = version === undefined ? 'no saved version' : `no saved version ${version}`;
  return `File history has ${what} of ${shownPath(filePath)}.`;
}

/**
 * Why `history.undo()` put nothing back: these files hold content the change being undone did not write (someone
 * edited them since), and putting back the saved versions would lose it.
 */
export function undoneFilesChangedMessage(paths: readonly string[]): string {
  const shown = paths.map((filePath) => shownPath(filePath, LIST_SEPARATORS)).join(', ');
  return (
    `These files changed after the change being undone: ${shown}. Nothing was undone; ` +
    'history.restore(path, version) puts back one version and saves what the file holds first.'
  );
}

/**
 * The error of a history undo or restore whose files now resolve elsewhere than where they were saved from: a directory
 * on the way became a link (maybe out of the workspace). Nothing is put back.
 */
export function historyPathsMovedMessage(paths: readonly string[], action: 'undone' | 'restored'): string {
  const shown = paths.map((filePath) => shownPath(filePath, LIST_SEPARATORS)).join(', ');
  return (
    `These files now resolve elsewhere than where they were saved from (a directory on the way became a link or ` +
    `was moved): ${shown}. Nothing was ${action}.`
  );
}

/** The message of a description template naming a placeholder it was given no value for. */
export function unknownPlaceholderMessage(source: string, placeholder: string): string {
  return `${source}: unknown placeholder ${placeholder}`;
}

/** The message of an invalid option of `owner` (a tool's constructor, `createRuntime`): `{owner}: {name} {problem}.` */
function optionMessage(owner: string, name: string, problem: string): string {
  return `${owner}: ${name} ${problem}.`;
}

/** An option that must be a positive number. */
export function notPositiveNumberMessage(owner: string, name: string, value: unknown): string {
  return optionMessage(owner, name, `must be a positive number, got ${String(value)}`);
}

/** A list option whose entries must be media types. */
export function notMediaTypesMessage(owner: string, name: string, value: unknown): string {
  return optionMessage(
    owner,
    name,
    `must hold only media types (type/subtype, type/* or */*), got ${JSON.stringify(value)}`,
  );
}

/** An option that must be one of `allowed`. */
export function notOneOfMessage(
  owner: string,
  name: string,
  value: unknown,
  allowed: readonly string[],
): string {
  const choices = allowed.map((choice) => `'${choice}'`).join(' or ');
  return optionMessage(owner, name, `must be ${choices}, got ${JSON.stringify(value)}`);
}

/** An option that must be a list of some of `allowed`. */
export function notSomeOfMessage(
  owner: string,
  name: string,
  value: unknown,
  allowed: readonly string[],
): string {
  const choices = allowed.map((choice) => `'${choice}'`).join(' and ');
  return optionMessage(owner, name, `must hold only ${choices}, got ${JSON.stringify(value)}`);
}

/** An option of the wrong type (`expected`: `a string`, `a function`). */
export function wrongTypeMessage(owner: string, name: string, expected: string, value: unknown): string {
  return optionMessage(owner, name, `must be ${expected}, got ${typeof value}`);
}

/** `createRuntime` without a work dir. */
export const WORKDIR_REQUIRED_MESSAGE = 'createRuntime: workDir is required.';

/** `createRuntime` without an approval. */
export const APPROVAL_REQUIRED_MESSAGE = 'createRuntime: approval is required (e.g. yoloApproval()).';

/** The message for an option that moved from the runtime to the tool it belongs to. */
export function movedRuntimeOptionMessage(name: string, place: string): string {
  return `createRuntime: ${name} is no longer a runtime option; give it to its tool: ${place}.`;
}

// Permission rules a host gives (docs/permissions.md#errors): `{problem}` completes `invalid permission rule `{rule}`: `.

/** A rule that is not a string or an object. */
export const RULE_SHAPE_PROBLEM =
  'a rule is a string such as `allow Edit(src/**)` or an object `{ effect, tools, paths? }`.';

/** A string rule that does not read `{effect} {tools}({globs})`. */
export const RULE_FORM_PROBLEM =
  'write it as allow, ask or deny, then a tool or group, then globs in parentheses, e.g. `allow Edit(src/**)`.';

/** A rule holding a control character (a tab, a line break...). */
export const RULE_CONTROL_CHARACTER_PROBLEM = 'it holds a control character.';

/** A string rule whose first word is not an effect. */
export function unknownEffectProblem(word: string): string {
  return `\`${word}\` is not an effect: use allow, ask or deny.`;
}

/** A name that cannot be a tool's. */
export function toolNameProblem(name: string): string {
  return `\`${name}\` is not a tool name: use a tool's name (letters, digits, \`_\` and \`-\`) or a group, Read or Edit.`;
}

/** `Edit()`: parentheses without a glob. */
export const EMPTY_PARENTHESES_PROBLEM = 'the parentheses hold no glob: leave them out to match every path.';

/** `Edit(a,,b)`, or an empty string among an object's paths. */
export const EMPTY_GLOB_PROBLEM = 'a glob is empty.';

/** A glob starting with `!`. */
export function globNegatedProblem(glob: string): string {
  return `the glob \`${glob}\` starts with !: a rule cannot negate a glob; write a rule with another effect instead.`;
}

/** A glob starting with `~`. */
export function globHomeProblem(glob: string): string {
  return `the glob \`${glob}\` starts with ~: write the home directory's absolute path instead.`;
}

/** A glob with a `.` or `..` segment. */
export function globDotSegmentProblem(glob: string): string {
  return `the glob \`${glob}\` has a . or .. segment: write it relative to the workspace without them, or as an absolute glob.`;
}

/** A glob with `//` inside. */
export function globEmptySegmentProblem(glob: string): string {
  return `the glob \`${glob}\` has an empty segment (//).`;
}

/** An object rule's `effect` that is not one. */
export const RULE_EFFECT_FIELD_PROBLEM = '`effect` must be allow, ask or deny.';

/** An object rule's `tools` that is not a non-empty list of strings. */
export const RULE_TOOLS_FIELD_PROBLEM = '`tools` must be a non-empty list of tool names.';

/** An object rule's `paths` that is not a non-empty list of strings. */
export const RULE_PATHS_FIELD_PROBLEM =
  '`paths` must be a non-empty list of globs, or left out to match every path.';

/** An object rule with a field rules do not have (`path` for `paths`...). */
export function unknownRuleFieldProblem(field: string): string {
  return `\`${field}\` is not a field of a rule: use effect, tools and paths.`;
}

/** A rule that cannot be used: ``invalid permission rule `{rule}`: {problem}`` (the rule shown escaped). */
export function invalidRuleMessage(rule: string, problem: string): string {
  return `invalid permission rule \`${rule}\`: ${problem}`;
}

/** `createRuntime`'s `permissions` that is not a list. */
export const PERMISSIONS_NOT_A_LIST_MESSAGE = 'createRuntime: permissions must be a list of rules.';

/** A line of a permissions file that holds an invalid rule: `line {n}: {message}`. */
export function permissionsLineMessage(line: number, message: string): string {
  return `line ${line}: ${message}`;
}

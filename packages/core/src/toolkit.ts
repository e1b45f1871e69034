// @kimi-tools/core/toolkit: what a tool author needs, on top of the main entry, to write a tool with the same
// guarantees as the built-in ones, and what a model API adapter needs to send results the one way core renders
// them. Everything else in core is private.

// results and the shared error vocabulary
export { errorText, toolRejected, type ToolResultInit } from './result/tool-result.js';
export { shownErrorLines, shownErrorText } from './result/shown-error-text.js';
export { EMPTY_RESULT_TEXT, ERROR_MARKER } from './result/model-content.js';

// model API adapters: tools or a tool set, and media an API does not take
export { toolSetOf, type ToolsOrSet } from './tool/tool-set-of.js';
export {
  acceptsMediaTypes,
  keepAcceptedMedia,
  mediaLeftOutText,
  type ModelMediaPart,
} from './result/accepted-media.js';
export {
  Briefs,
  notFoundMessage,
  notReadableMessage,
  readFailedMessage,
  failedOnPathMessage,
  failedOnArgumentMessage,
  toolFailedMessage,
  type CoreBrief,
  type PermissionBrief,
} from './errors.js';
export {
  fileNotFoundError,
  missingFileError,
  notAFileError,
  pathThroughFileError,
  sensitiveEditError,
  sensitiveFileError,
  unsupportedEncodingError,
} from './path/file-errors.js';
export { readStateError } from './state/read-state-error.js';

// describing a tool, checking its arguments, and its options
export { validateArguments, type ArgumentsCheck } from './tool/validate-arguments.js';
export type { JsonSchemaConverter, ToolParamsSchema, ToolZod } from './tool/tool-zod.js';
export type { ZodMetadata } from './tool/json-schema-writer.js';
export { renderDescription } from './tool/description-template.js';
export {
  positiveNumberOption,
  choiceOption,
  choicesOption,
  mediaTypesOption,
  stringOption,
  functionOption,
} from './runtime/options.js';
export { defineRuntimeSlot, type RuntimeSlot } from './runtime/runtime-slot.js';

// paths: a file the model names is opened to read with `openFileToRead`, which applies the whole policy (workspace,
// `outside`, deny globs, sensitive files); a path to write is resolved with `runtime.paths.resolveFile`, a search
// path with `resolveSearchPath`
export {
  openFileToRead,
  type FileToRead,
  type FileToReadBrief,
  type FileToReadResult,
} from './path/open-file-to-read.js';
export type { PathVerb, ResolvedPath, PathResult } from './path/path-policy.js';
export { isWithinDirectory } from './path/containment.js';
export { realPathAllowMissing } from './path/real-path.js';
export { pathApiFor } from './path/platform-path.js';
export { sensitiveFilesWarning } from './path/sensitive.js';

// reading files: the raw mechanisms below apply no path policy; they are for a path already through it
export { statIfExists } from './fs/stat-if-exists.js';
export { backendClock } from './fs/backend-clock.js';
export { readDirectoryEntries } from './fs/local-file-system.js';
export { hasErrno, isMissingPathError } from './fs/errno.js';
export { importRetrying, resolvedModuleUrl } from './fs/import-retrying.js';
export { jsdiff } from './fs/load-on-use.js';
export {
  DESCRIPTOR_SHORTAGE_RETRIES,
  descriptorShortageDelayMs,
  isDescriptorShortage,
  retryOnDescriptorShortage,
} from './fs/descriptor-shortage.js';
export { readHandleAtMost, readHandleRange, readHandleUpTo } from './fs/read-bytes.js';
export { lstatMany } from './fs/lstat-many.js';
export { Slots } from './fs/slots.js';
export {
  openRegularFile,
  readRegularFile,
  readFileUpTo,
  type OpenedRegularFile,
  type RegularFileBytes,
  type NotRegularFile,
} from './fs/regular-file.js';
export { detectFileKind, type FileKind } from './filetype/file-kind.js';
export { readFileHead, FILE_HEAD_BYTES } from './filetype/read-file-head.js';
export {
  scanLines,
  type ScannedLine,
  type LinePosition,
  type LineScanOptions,
  type LineScanResult,
} from './text/line-reader.js';
export { scanLinesWhereStored } from './text/stored-line-scan.js';

// text: decode, change on the '\n'-normalised form, encode back in the file's format
export {
  decodeText,
  detectTextEncoding,
  encodeNewFile,
  encodeText,
  UnencodableTextError,
} from './text/codec.js';
export type { LineEnding, TextEncoding, TextFormat, DecodedText, DecodeResult } from './text/codec-types.js';
export { normalizeLineEndings, detectLineEnding, countLineBreaks } from './text/line-endings.js';
export { createStreamDecoder, type StreamDecoder } from './text/codec-stream.js';
export { bomLength, encodingFromBom } from './text/bom.js';
export {
  escapeForDisplay,
  showUnsafeCharacters,
  LIST_SEPARATORS,
  nameSeparators,
  quotedArgument,
  quotedPath,
  shownArgument,
  shownArgumentLine,
  shownPath,
  type NameSeparators,
} from './text/escape-for-display.js';
export { readShownPath } from './path/normalize-input.js';
export { readShownGlob } from './path/shown-glob.js';
export { showControlCharacters } from './text/control-pictures.js';
export { containsNulByte } from './text/encoding-bytes.js';
export { createUtf8StreamCheck, type Utf8StreamCheck } from './text/utf8-stream-check.js';
export { createTextStreamCheck, type TextStreamCheck } from './text/text-stream-check.js';
export { TextDraft, type TextDraftOptions } from './text/text-draft.js';
export type { TextReplacement } from './text/text-replacement.js';
export { encodeChange } from './text/encode-change.js';

// applying a change: approval with diff, read-state re-check, locks, atomic write, history. A tool that asks approval
// itself (Rewind) asks through `askApproval`, which applies the permission rules first.
export { askApproval, type ApprovalOutcome, type ApprovalTarget } from './approval/ask-approval.js';
export {
  deniedByRuleError,
  deniedListing,
  hiddenFromListing,
  type HiddenPathTest,
} from './permissions/denied-by-rule.js';
export type { RuledTool } from './permissions/permission-rules.js';
export type { ToolAccess } from './permissions/permission-rule.js';
export { applyFileChange, type FileChange, type ApplyOutcome } from './write/apply-file-change.js';
export { withAnswerNote } from './approval/answer-messages.js';
export {
  applyStreamedChange,
  type StreamedFileChange,
  type StreamedOutcome,
} from './write/apply-streamed-change.js';
export { missingDirectories, PathThroughFileError } from './write/missing-directories.js';
export { createDirectories, removeCreatedDirectories } from './write/created-directories.js';
export {
  RUNTIME_DIRECTORIES,
  type ChangeDirectories,
  type RuntimeDirectories,
} from './write/runtime-directories.js';
export { withFileLock, type FileLockOptions, type HeldFileLock } from './write/file-lock.js';
export { withFileSetLocks, type HeldFileSetLocks } from './write/file-set-locks.js';
export { FileLockLostError } from './errors.js';
export {
  applyFileSet,
  type FileSetChange,
  type FileSetEntry,
  type FileSetOutcome,
} from './write/apply-file-set.js';
export {
  commitFileSet,
  readPreviousState,
  CommitFailedError,
  type CommitOptions,
  type CommitStep,
  type PreviousState,
} from './write/commit-file-set.js';
export { hashBytes, hashFile, createContentHasher, CONTENT_HASH_LIMIT_BYTES } from './state/content-hash.js';
export {
  snapshotOf,
  stampOf,
  stampOfHandle,
  stampOfStats,
  stampNeedsHash,
  sameStamp,
  type FileStamp,
  type FileSnapshot,
  type StampStats,
} from './state/file-stamp.js';
export { type SavedBy, type WrittenState } from './state/file-history.js';
export { readStampedFile, type StampedBytes } from './state/read-stamped.js';
export {
  buildDiffBlocks,
  DIFF_MAX_LINES,
  DIFF_BLOCK_MAX_BYTES,
  DIFF_DISPLAY_MAX_BYTES,
  DEFAULT_DIFF_BUDGET_MS,
  type DiffOptions,
  type DiffTiming,
} from './diff/build-diff-blocks.js';
export { DIFF_LINE_MAX_CHARS } from './diff/cut-long-lines.js';
export { changedLines, type ChangedLines } from './diff/changed-lines.js';
export { LineDiff } from './diff/line-diff.js';

// what a write tool shows the model of its change: numbered lines around the changed places (and those prefixes read
// back from text a model copied)
export { numberedLine, stripLineNumbers, stripNewLineNumbers } from './text/numbered-line.js';
export { counted } from './text/counted.js';
export { SHOWN_LINE_MAX_LENGTH, shownLine, formatLines, type ShownLine } from './text/shown-line.js';
export {
  lineSnippet,
  withFinalLineBreak,
  snippetCutSentence,
  SNIPPET_MAX_BYTES,
  SNIPPET_CONTEXT_LINES,
  SNIPPET_LINE_MAX_CHARS,
  SNIPPET_GAP_LINE,
  type LineSpan,
  type LineSnippet,
  type LineSnippetOptions,
} from './snippet/line-snippet.js';
export { replacementLineSpans } from './snippet/replacement-spans.js';
export { isElisionComment, introducedElision } from './text/elision-comment.js';
export {
  findClosestText,
  CLOSEST_TEXT_MAX_LINES,
  CLOSEST_TEXT_MIN_SIMILARITY,
  CLOSEST_TEXT_EXCERPT_LINES,
  CLOSEST_TEXT_EXCERPT_LINE_CHARS,
  type ClosestText,
} from './text/closest-text.js';

// what the session remembers of its own edits (replays)
export {
  EditLog,
  EDIT_LOG,
  EDIT_LOG_MAX_FILES,
  EDIT_LOG_MAX_EDITS_PER_FILE,
  EDIT_LOG_MAX_EDIT_CHARS,
  EDIT_LOG_MAX_FILE_CHARS,
  type LoggedEdit,
} from './state/edit-log.js';

// what the session last saw of a file (edits that survive unrelated changes)
export {
  ReadTextStore,
  READ_TEXTS,
  READ_TEXT_MAX_BYTES,
  READ_TEXTS_MAX_CHARS,
  type ReadText,
} from './state/read-texts.js';
export { recordSeenText, lastSeenText } from './state/seen-text.js';
export { cleanupStaleTempFiles, isAtomicTempName, type CleanupOptions } from './write/temp-files.js';
export { isLockFileName } from './write/lock-file-name.js';

// Jupyter notebooks: parse, render as cells (ReadFile), plan a one-cell edit in the file's own style (NotebookEdit)
export { parseNotebook, positionalCellId } from './notebook/parse-notebook.js';
export type {
  Notebook,
  NotebookCell,
  NotebookParse,
  JsonObject,
  JsonValue,
} from './notebook/notebook-types.js';
export { renderNotebook, renderCell } from './notebook/render-notebook.js';
export { NOTEBOOK_VIEW_MAX_BYTES, isNotebookName, shownCell } from './notebook/notebook-view.js';
export { NOTEBOOK_OUTPUT_MAX_LINES } from './notebook/render-outputs.js';
export {
  planNotebookEdit,
  type NotebookCellEdit,
  type NotebookEditPlan,
  type EditableCellType,
} from './notebook/edit-notebook.js';

// observers of applied file changes (diagnostics, formatters, watchers), closed with the runtime
export type {
  AppliedFileChange,
  ChangeSection,
  FileChangeObserver,
  RemovedFileChange,
} from './observe/change-observer.js';

// ignore rules (.gitignore, .ignore, version-control folders) as the search tools and directory listings apply them
export {
  IgnoreRuleSet,
  IGNORE_FILE_NAMES,
  VCS_DIRECTORIES,
  loadIgnoreRules,
  loadAncestorIgnoreLevels,
  levelForDirectory,
  isIgnoredEntry,
  ignoredEntryTest,
  isVcsName,
  IGNORE_SET_MAX_REMEMBERED,
  type VerdictOfEntry,
  type IgnoreLevel,
  type IgnoreLoadOptions,
} from './ignore/ignore-rules.js';
export {
  IgnoreRuleCache,
  IGNORE_RULE_CACHE_SETS,
  IGNORE_RULE_CACHE_CHARS,
} from './ignore/ignore-rule-cache.js';
export { readIgnoreFile, IGNORE_FILE_MAX_BYTES } from './ignore/read-ignore-file.js';
export { workspaceRootOf } from './ignore/workspace-root.js';

// The public surface of @kimi-tools/core: named exports only, one section per concern.

// results
export {
  toolOk,
  toolError,
  toolRejected,
  errorText,
  type ContentPart,
  type BriefDisplayBlock,
  type DiffDisplayBlock,
  type DisplayBlock,
  type ToolReturnValue,
  type ToolResultInit,
} from './result/tool-result.js';

// tool base
export { CallableTool, type CallOptions } from './tool/callable-tool.js';
export { toToolJsonSchema, type JsonSchema } from './tool/json-schema.js';
export { renderDescription } from './tool/description-template.js';

// approval
export { FileActions, type FileAction } from './approval/file-actions.js';
export {
  yoloApproval,
  rejectAllApproval,
  SessionApproval,
  type Approval,
  type ApprovalRequest,
  type ApprovalResponse,
  type AskUser,
} from './approval/approval.js';

// runtime
export {
  createRuntime,
  type RuntimeOptions,
  type ToolRuntime,
  type OutsidePolicy,
} from './runtime/runtime.js';
export { defineRuntimeSlot, type RuntimeSlot } from './runtime/runtime-slot.js';
export { positiveNumberOption, choiceOption, stringOption, functionOption } from './runtime/options.js';

// path policy
export {
  PathPolicy,
  type PathVerb,
  type PathPolicySettings,
  type PathPolicyEnvironment,
  type ResolvedPath,
  type PathResult,
} from './path/path-policy.js';
export { isWithinDirectory } from './path/containment.js';
export { realPathAllowMissing } from './path/real-path.js';
export {
  isSensitivePath,
  createSensitiveTest,
  sensitiveFilesWarning,
  type SensitiveTest,
} from './path/sensitive.js';
export { suggestSimilarFiles } from './path/suggest-similar.js';
export { fileNotFoundError, notAFileError, unsupportedEncodingError } from './path/file-errors.js';
export { statIfExists } from './fs/stat-if-exists.js';
export {
  checkPathInput,
  expandPathInput,
  type InputProblem,
  type ExpandOptions,
} from './path/normalize-input.js';

// text codec and line endings
export {
  decodeText,
  detectTextEncoding,
  encodeText,
  canEncodeText,
  UnencodableTextError,
} from './text/codec.js';
export { createStreamDecoder, type StreamDecoder } from './text/codec-stream.js';
export type { LineEnding, TextEncoding, TextFormat, DecodedText, DecodeResult } from './text/codec-types.js';
export { detectLineEnding, normalizeLineEndings } from './text/line-endings.js';
export { restoreLineEndings } from './text/restore-line-endings.js';
export { encodeChange } from './text/encode-change.js';
export { TextDraft } from './text/text-draft.js';
export type { TextReplacement } from './text/text-replacement.js';

// file-type detection
export { detectFileKind, type FileKind } from './filetype/file-kind.js';
export { readFileHead, FILE_HEAD_BYTES } from './filetype/read-file-head.js';
export { readFileUpTo, readHandleUpTo } from './fs/read-bytes.js';

// line reader and line index
export {
  scanLines,
  type ScannedLine,
  type LinePosition,
  type LineScanOptions,
  type LineScanResult,
} from './text/line-reader.js';

// atomic write, locks, read state, history, applying a change
export { writeFileAtomic, type AtomicWriteOptions } from './write/atomic-write.js';
export {
  cleanupStaleTempFiles,
  isAtomicTempName,
  atomicTempName,
  type CleanupOptions,
} from './write/temp-files.js';
export { resolveLinkTarget } from './write/resolve-link-target.js';
export { PathLocks } from './write/path-locks.js';
export { withFileLock, type FileLockOptions } from './write/file-lock.js';
export { lockFilePath, isLockFileName } from './write/lock-file-name.js';
export { applyFileChange, type FileChange, type ApplyOutcome } from './write/apply-file-change.js';
export { hashBytes, hashFile, snapshotOf, type FileSnapshot } from './state/file-snapshot.js';
export { FileStateTracker, type FileStateRecord, type FileStateStatus } from './state/file-state-tracker.js';
export { readStateError } from './state/read-state-error.js';
export { FileHistory, type HistoryEntry, type FileHistoryOptions } from './state/file-history.js';

// diff blocks
export {
  buildDiffBlocks,
  DIFF_MAX_LINES,
  DEFAULT_DIFF_BUDGET_MS,
  DEFAULT_DIFF_CONTEXT,
  type DiffOptions,
  type DiffTiming,
} from './diff/build-diff-blocks.js';
export { diffSummaryBlock } from './diff/diff-summary.js';
export { diffBlockLines, type DiffBlockLine } from './diff/block-lines.js';
export {
  unifiedDiffLines,
  formatUnifiedDiff,
  type UnifiedDiffLine,
  type UnifiedDiffOptions,
} from './diff/unified-diff.js';

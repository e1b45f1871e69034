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
  type Capability,
  type UploadVideo,
  type OutsidePolicy,
  type EditMatch,
} from './runtime/runtime.js';

// path policy

// text codec and line endings

// file-type detection

// line reader and line index

// atomic write, locks, read state, history, applying a change

// diff blocks
export {
  buildDiffBlocks,
  DIFF_MAX_LINES,
  DEFAULT_DIFF_BUDGET_MS,
  DEFAULT_DIFF_CONTEXT,
  type DiffOptions,
} from './diff/build-diff-blocks.js';
export { diffSummaryBlock } from './diff/diff-summary.js';

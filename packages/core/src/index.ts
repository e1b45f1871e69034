// @kimi-tools/core: what a host needs to run the tools (results and their one rendering for a model, the tool base
// class, tool sets, the runtime, approvals, read state, undo history, diff formatting). What a tool author needs on
// top lives in `@kimi-tools/core/toolkit`.

// results
export {
  toolOk,
  toolError,
  type ContentPart,
  type BriefDisplayBlock,
  type DiffDisplayBlock,
  type SectionDisplayBlock,
  type DisplayBlock,
  type ToolReturnValue,
} from './result/tool-result.js';
export { toModelContent, modelText, type ModelContent, type ModelPart } from './result/model-content.js';

// tools
export { CallableTool, type CallOptions } from './tool/callable-tool.js';
export type { JsonSchema } from './tool/json-schema.js';
export { createToolSet, type ToolSet, type ToolDefinition } from './tool/tool-set.js';
export { strictParameters } from './tool/strict-parameters.js';

// runtime
export {
  createRuntime,
  type RuntimeOptions,
  type ToolRuntime,
  type OutsidePolicy,
} from './runtime/runtime.js';

// where the files are (backends: `@kimi-tools/core/fs`)
export type { FileSystem } from './fs/file-system.js';

// approvals
export { FileActions, type FileAction } from './approval/file-actions.js';
export {
  yoloApproval,
  rejectAllApproval,
  SessionApproval,
  type Approval,
  type ApprovalRequest,
  type ApprovalResponse,
  type ApprovalHunk,
  type ApprovalScope,
  type EditableFile,
  type AskUser,
} from './approval/approval.js';
export { checkApprovalResponse } from './approval/check-answer.js';

// permission rules (docs/permissions.md): a host gives them to `createRuntime({ permissions })`
export { parsePermissions } from './permissions/parse-permissions.js';
export type { PermissionRule } from './permissions/permission-rule.js';

// read state and undo history
export { FileStateTracker } from './state/file-state-tracker.js';
export { FileHistory, type HistoryEntry, type FileHistoryOptions } from './state/file-history.js';

// diffs for people
export {
  unifiedDiffLines,
  formatUnifiedDiff,
  type UnifiedDiffLine,
  type UnifiedDiffOptions,
} from './diff/unified-diff.js';

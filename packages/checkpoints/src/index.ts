// The public surface of @kimi-tools/checkpoints.
export {
  Checkpoints,
  createCheckpoints,
  checkpointsOf,
  CheckpointNotFoundError,
  PathOutsideWorkspaceError,
} from './checkpoints.js';
export {
  defaultStoreDirectory,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_COUNT,
  DEFAULT_MAX_FILE_BYTES,
  type CheckpointsOptions,
} from './options.js';
export type {
  Checkpoint,
  LeftAlone,
  Resolution,
  RewindOptions,
  RewindPreview,
  RewindResult,
} from './rewind/rewind-types.js';
export type { FileChange } from './scan/changes.js';
export type { FileDiff } from './file-diffs.js';
export { mergeThreeWay, conflictMarkers, type MergedText } from './rewind/merge-three-way.js';
export { ListCheckpoints, type ListCheckpointsExtras } from './tools/list-checkpoints.js';
export { Rewind, type RewindExtras } from './tools/rewind-tool.js';
export { ListCheckpointsParams, RewindParams } from './tools/params.js';
export { CheckpointBriefs, type CheckpointBrief } from './tools/messages.js';

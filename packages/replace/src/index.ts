export {
  StrReplaceFile,
  type StrReplaceFileExtras,
  type StrReplaceFileOptions,
  type ModifiedSinceRead,
} from './str-replace-file.js';
export { STALE_DIFF_MAX_LINES } from './stale-edit.js';
export { StrReplaceFileParams, EditSchema, type Edit } from './params.js';
export { STR_REPLACE_FILE_DESCRIPTION } from './description.js';
export type { StrReplaceFileBrief } from './errors.js';
export { MAX_EDIT_FILE_BYTES, DEFAULT_STREAM_ABOVE_BYTES, MAX_WINDOW_BYTES } from './limits.js';
export { STREAM_SAMPLE_BYTES } from './window/file-format.js';
export { WINDOW_CONTEXT_LINES, WINDOW_REACH_BYTES } from './window/window-ranges.js';
export { applyEdits, type ApplyEditsOptions, type ApplyEditsResult } from './match/apply-edits.js';
export { MAX_LISTED_MATCHES } from './match/find-edit.js';
export {
  CLOSEST_TEXT_MAX_LINES,
  CLOSEST_TEXT_MIN_SIMILARITY,
  CLOSEST_TEXT_EXCERPT_LINES,
  CLOSEST_TEXT_EXCERPT_LINE_CHARS,
  type ClosestText,
} from '@kimi-tools/core/toolkit';
export {
  MATCH_LEVELS,
  type MatchLevel,
  type EditMatch,
  type EditSpec,
  type EditFailure,
  type EditOutcome,
} from './match/types.js';

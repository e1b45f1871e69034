// The public surface of @kimi-tools/patch.
export { ApplyPatch, type ApplyPatchOptions, type ApplyPatchExtras } from './apply-patch.js';
export { ApplyPatchParams } from './params.js';
export { ApplyPatchBriefs, type ApplyPatchBrief } from './errors.js';
export { DEFAULT_MAX_PATCH_BYTES, DEFAULT_MAX_FILES, DEFAULT_MAX_CHUNKS } from './limits.js';
export { parsePatch } from './parse/parse-patch.js';
export type { PatchSection, PatchChunk, ParsedPatch } from './parse/patch-types.js';

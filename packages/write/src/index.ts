// The public surface of @kimi-tools/write: named exports only.
export { WriteFile, type WriteFileOptions } from './write-file.js';
export type { WriteFileBrief } from './errors.js';
export { WriteFileParams, type WriteMode } from './params.js';

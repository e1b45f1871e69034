// The public surface of @kimi-tools/read.
export { ReadFile, type ReadFileOptions } from './read-file.js';
export type { ReadFileBrief } from './errors.js';
export { ReadFileParams } from './params.js';
export { MAX_LINES, MAX_LINE_LENGTH, MAX_BYTES } from './limits.js';

// The public surface of @kimi-tools/notebook.
export { NotebookEdit, type NotebookEditOptions } from './notebook-edit.js';
export { NotebookEditParams } from './params.js';
export type { NotebookEditBrief } from './errors.js';
export type { NotebookEditFacts } from './facts.js';
export { DEFAULT_MAX_BYTES } from './limits.js';

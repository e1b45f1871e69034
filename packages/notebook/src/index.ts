// The public surface of @kimi-tools/notebook.
export { NotebookEdit, type NotebookEditOptions, type NotebookEditExtras } from './notebook-edit.js';
export { NotebookEditParams } from './params.js';
export type { NotebookEditBrief } from './errors.js';
export { DEFAULT_MAX_BYTES } from './limits.js';

/** Default of the `maxBytes` option: the largest notebook NotebookEdit edits (256 MiB). */
export const DEFAULT_MAX_BYTES = 256 << 20;

/** Most cell ids an unknown-cell error lists. */
export const MAX_LISTED_CELL_IDS = 20;

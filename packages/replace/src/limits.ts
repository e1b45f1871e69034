import { constants } from 'node:buffer';

/**
 * The largest file read whole: V8's longest string (about 512 MiB), since the file is decoded into one. A larger file
 * is always read in windows (docs/str-replace-file.md#files-read-in-windows).
 */
export const MAX_EDIT_FILE_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Default of the tool option `streamAboveBytes` (64 MiB): a larger file is read in windows around the places the edits
 * may change, found by one scan of its bytes, and written by copying the rest, which holds a few MiB whatever its
 * size; a file up to it is read whole as one window (about five times the file in memory, one read). 64 MiB is also
 * where read-state stamps stop hashing the content.
 */
export const DEFAULT_STREAM_ABOVE_BYTES = 64 * 1024 * 1024;

/**
 * Bytes the windows of one call may hold together (64 MiB, what a file read whole may be by default): edits that
 * could match at more places of a larger file are refused rather than hold a large part of it.
 */
export const MAX_WINDOW_BYTES = 64 * 1024 * 1024;

/**
 * Replacements all the edits of one call may make together (100,000). Each one costs a few small objects while the
 * change is built, so 20 million of them (`replace_all` of one character in a 40 MB file) would exhaust the heap and
 * abort the host; a rename that touches more places than this is a job for a script.
 */
export const MAX_REPLACEMENTS = 100_000;

/**
 * Characters the edits of one call may add to the text (16 Mi). The old and new text, the new raw form and its
 * encoded bytes are all held at once, so unbounded growth (40 `replace_all` edits that each double the text) would
 * exhaust the heap; 16 Mi is a thousand times what a model writes in one call, and keeps what the growth costs
 * under about 150 MB even for two-byte text.
 */
export const MAX_EDIT_GROWTH_CHARS = 16 * 1024 * 1024;

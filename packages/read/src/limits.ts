import { NOTEBOOK_VIEW_MAX_BYTES, SHOWN_LINE_MAX_LENGTH } from '@kimi-tools/core/toolkit';

/** Most lines one ReadFile call shows. */
export const MAX_LINES = 1000;

/** Longest line shown, in code points including its line break; longer lines are cut and end with `...`. */
export const MAX_LINE_LENGTH = SHOWN_LINE_MAX_LENGTH;

/** Most UTF-8 bytes of shown lines one call returns (the line that crosses it is kept). */
export const MAX_BYTES = 100 << 10;

/** Most lines a tail read (negative `line_offset`) can reach back. */
export const MAX_TAIL_LINES = 1000;

/** Files up to this size are sampled whole to detect their encoding; bigger ones by their first {@link ENCODING_SAMPLE_BYTES}. */
export const WHOLE_SAMPLE_LIMIT_BYTES = 1 << 20;

/** Sample size for detecting the encoding of a big file. */
export const ENCODING_SAMPLE_BYTES = 64 << 10;

/** Notebooks (`.ipynb`) up to this size are shown as cells; bigger ones, like any text file, line by line. */
export const NOTEBOOK_MAX_BYTES = NOTEBOOK_VIEW_MAX_BYTES;

/** Entries a directory's listing names at most (ReadFile on a directory); the rest are counted. */
export const DIRECTORY_LISTING_MAX_ENTRIES = 50;

/**
 * The most a file that reports no size (Linux's `/proc`, some FUSE file systems) is read to: it is read whole into
 * memory to learn its size. `/proc` files are far smaller.
 */
export const MAX_UNSIZED_BYTES = 64 << 20;

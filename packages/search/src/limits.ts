/** Glob returns at most this many paths. */
export const GLOB_MAX_MATCHES = 1000;

/** A brace pattern expanding to more alternatives than this is not expanded (and a brace range that large is refused). */
export const GLOB_MAX_BRACE_EXPANSION = 256;

/** Grep's default `head_limit`: lines kept per page when the model gives none. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;

/** Grep's output is cut to this many characters. */
export const GREP_MAX_OUTPUT_CHARS = 50_000;

/** Each Grep output line is cut to this many characters. */
export const GREP_MAX_LINE_CHARS = 2_000;

/** A cut line whose first match starts this many characters or more into it is shown from this far before the match. */
export const GREP_LONG_LINE_LEAD_CHARS = 500;

/** ripgrep's `--max-columns` outside content mode. */
export const GREP_MAX_COLUMNS = 500;

/** Version-control folders both tools skip (core's list, shared with ReadFile's directory listing). */
export { VCS_DIRECTORIES } from '@kimi-tools/core/toolkit';

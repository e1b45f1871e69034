// The public surface of @kimi-tools/search: named exports only.

export { Glob, type GlobOptions } from './glob/glob.js';
export { GlobParams } from './glob/glob-params.js';
export { GLOB_DESCRIPTION } from './glob/glob-description.js';

export { Grep, type GrepOptions } from './grep/grep.js';
export { GrepParams, GREP_OUTPUT_MODES, type GrepOutputMode } from './grep/grep-params.js';
export { GREP_DESCRIPTION } from './grep/grep-description.js';
export type { GlobBrief, GrepBrief } from './errors.js';
export { findRipgrep } from './grep/ripgrep-binary.js';

export {
  GLOB_MAX_MATCHES,
  GREP_DEFAULT_HEAD_LIMIT,
  GREP_MAX_OUTPUT_CHARS,
  GREP_MAX_LINE_CHARS,
  GREP_LONG_LINE_LEAD_CHARS,
  GREP_MAX_COLUMNS,
  VCS_DIRECTORIES,
} from './limits.js';

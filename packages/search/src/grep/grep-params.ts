import * as z from 'zod';
import { GREP_DEFAULT_HEAD_LIMIT } from '../limits.js';

/** How Grep reports matches. */
export const GREP_OUTPUT_MODES = ['content', 'files_with_matches', 'count_matches'] as const;

/** One of {@link GREP_OUTPUT_MODES}. */
export type GrepOutputMode = (typeof GREP_OUTPUT_MODES)[number];

const contextLines = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .nullable()
    .default(null)
    .describe(`Number of lines to show ${what} each match. Only for output_mode "content".`);

/** Grep's arguments (docs/grep.md); property names and order are part of the contract. */
export const GrepParams = z.object({
  /** The regular expression (ripgrep syntax). */
  pattern: z
    .string()
    .describe(
      'Regular expression to search for, in ripgrep (Rust regex) syntax, e.g. `log.*Error`, `function\\s+\\w+`. Escape literal braces and dots: `interface\\{\\}`.',
    ),
  /** File or directory to search. */
  path: z
    .string()
    .default('.')
    .describe(
      'File or directory to search: absolute, or relative to the working directory. Defaults to the working directory. Must be inside the workspace.',
    ),
  /** Glob filter on file paths. */
  glob: z
    .string()
    .nullable()
    .default(null)
    .describe('Only search files matching this glob, e.g. `*.js`, `**/*.{ts,tsx}` (ripgrep `--glob`).'),
  /** What to report. */
  output_mode: z
    .enum(GREP_OUTPUT_MODES)
    .default('files_with_matches')
    .describe(
      '"content" shows matching lines (with -A/-B/-C context and -n line numbers), "files_with_matches" lists matching files newest first (default), "count_matches" shows the number of matches per file.',
    ),
  /** Context lines before each match. */
  '-B': contextLines('before'),
  /** Context lines after each match. */
  '-A': contextLines('after'),
  /** Context lines before and after each match. */
  '-C': contextLines('before and after'),
  /** Whether content lines carry line numbers. */
  '-n': z
    .boolean()
    .default(true)
    .describe('Show line numbers. Only for output_mode "content" (default true).'),
  /** Case-insensitive matching. */
  '-i': z.boolean().default(false).describe('Case-insensitive search (default false).'),
  /** ripgrep file type filter. */
  type: z
    .string()
    .nullable()
    .default(null)
    .describe(
      'Only search files of this ripgrep type, e.g. `js`, `py`, `rust`, `go`, `java`. More efficient than glob for standard types.',
    ),
  /** Lines per page. */
  head_limit: z
    .number()
    .int()
    .min(0)
    .nullable()
    .default(GREP_DEFAULT_HEAD_LIMIT)
    .describe(
      `Return at most this many output lines (files, content lines or counts). Default ${GREP_DEFAULT_HEAD_LIMIT}; 0 or null means no limit.`,
    ),
  /** Lines to skip before the page. */
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(
      'Skip this many output lines before applying head_limit, to page through long results (default 0).',
    ),
  /** Multiline matching. */
  multiline: z
    .boolean()
    .default(false)
    .describe('Let patterns span lines, with `.` matching newlines too (default false).'),
  /** Search ignored files too. */
  include_ignored: z
    .boolean()
    .default(false)
    .describe(
      'Also search files ignored by `.gitignore`/`.ignore` rules (default false). Hidden files are always searched; version-control folders never.',
    ),
});

/** Validated Grep arguments. */
export type GrepParams = z.output<typeof GrepParams>;

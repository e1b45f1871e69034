import * as z from 'zod/mini';
import { GREP_DEFAULT_HEAD_LIMIT } from '../limits.js';

/** How Grep reports matches. */
export const GREP_OUTPUT_MODES = ['content', 'files_with_matches', 'count_matches'] as const;

/** One of {@link GREP_OUTPUT_MODES}. */
export type GrepOutputMode = (typeof GREP_OUTPUT_MODES)[number];

/** A whole number of at least 0. */
const count = () => z.number().check(z.int(), z.minimum(0));

const contextLines = (what: string) =>
  z._default(z.nullable(count()), null).register(z.globalRegistry, {
    description: `Number of lines to show ${what} each match. Only for output_mode "content".`,
  });

/** Grep's arguments (docs/grep.md); property names and order are part of the contract. */
export const GrepParams = z.object({
  /** The regular expression (ripgrep syntax). */
  pattern: z.string().register(z.globalRegistry, {
    description:
      'Regular expression to search for, in ripgrep (Rust regex) syntax, e.g. `log.*Error`, `function\\s+\\w+`. Escape literal braces and dots: `interface\\{\\}`.',
  }),
  /** File or directory to search. */
  path: z._default(z.string(), '.').register(z.globalRegistry, {
    description:
      'File or directory to search: absolute, or relative to the working directory. Defaults to the working directory. Must be inside the workspace.',
  }),
  /** Glob filter on file paths. */
  glob: z._default(z.nullable(z.string()), null).register(z.globalRegistry, {
    description: 'Only search files matching this glob, e.g. `*.js`, `**/*.{ts,tsx}` (ripgrep `--glob`).',
  }),
  /** What to report. */
  output_mode: z._default(z.enum(GREP_OUTPUT_MODES), 'files_with_matches').register(z.globalRegistry, {
    description:
      '"content" shows matching lines (with -A/-B/-C context and -n line numbers), "files_with_matches" lists matching files newest first (default), "count_matches" shows the number of matches per file.',
  }),
  /** Context lines before each match. */
  '-B': contextLines('before'),
  /** Context lines after each match. */
  '-A': contextLines('after'),
  /** Context lines before and after each match. */
  '-C': contextLines('before and after'),
  /** Whether content lines carry line numbers. */
  '-n': z._default(z.boolean(), true).register(z.globalRegistry, {
    description: 'Show line numbers. Only for output_mode "content" (default true).',
  }),
  /** Case-insensitive matching. */
  '-i': z._default(z.boolean(), false).register(z.globalRegistry, {
    description: 'Case-insensitive search (default false).',
  }),
  /** ripgrep file type filter. */
  type: z._default(z.nullable(z.string()), null).register(z.globalRegistry, {
    description:
      'Only search files of this ripgrep type, e.g. `js`, `py`, `rust`, `go`, `java`. More efficient than glob for standard types.',
  }),
  /** Lines per page. */
  head_limit: z._default(z.nullable(count()), GREP_DEFAULT_HEAD_LIMIT).register(z.globalRegistry, {
    description: `Return at most this many output lines (files, content lines or counts). Default ${GREP_DEFAULT_HEAD_LIMIT}; 0 or null means no limit.`,
  }),
  /** Lines to skip before the page. */
  offset: z._default(count(), 0).register(z.globalRegistry, {
    description:
      'Skip this many output lines before applying head_limit, to page through long results (default 0).',
  }),
  /** Multiline matching. */
  multiline: z._default(z.boolean(), false).register(z.globalRegistry, {
    description: 'Let patterns span lines, with `.` matching newlines too (default false).',
  }),
  /** Search ignored files too. */
  include_ignored: z._default(z.boolean(), false).register(z.globalRegistry, {
    description:
      'Also search files ignored by `.gitignore`/`.ignore` rules (default false). Hidden files are always searched; version-control folders never.',
  }),
});

/** Validated Grep arguments. */
export type GrepParams = z.output<typeof GrepParams>;

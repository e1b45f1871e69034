import * as z from 'zod';

/** Glob's arguments (docs/glob.md). */
export const GlobParams = z.object({
  /** The glob to match, relative to the search directory. */
  pattern: z
    .string()
    .describe(
      'Glob pattern relative to the search directory, e.g. `**/*.ts`, `src/**/test_*.py`, `*.{json,yaml}`. `..` and absolute patterns are not allowed.',
    ),
  /** Where to search; null means the working directory. */
  directory: z
    .string()
    .nullable()
    .default(null)
    .describe(
      'Directory to search in: absolute, or relative to the working directory. Defaults to the working directory. Must be inside the workspace.',
    ),
  /** Whether directories are listed too. */
  include_dirs: z
    .boolean()
    .default(true)
    .describe('Whether matching directories are returned too (default true).'),
  /** Whether ignored entries are searched too. */
  include_ignored: z
    .boolean()
    .default(false)
    .describe(
      'Also search entries skipped by default: `.gitignore`/`.ignore` rules, `node_modules`, and version-control folders such as `.git` (default false).',
    ),
});

/** Validated Glob arguments. */
export type GlobParams = z.output<typeof GlobParams>;

import * as z from 'zod/mini';

/** Glob's arguments (docs/glob.md). */
export const GlobParams = z.object({
  /** The glob to match, relative to the search directory. */
  pattern: z.string().register(z.globalRegistry, {
    description:
      'Glob pattern relative to the search directory, e.g. `**/*.ts`, `src/**/test_*.py`, `*.{json,yaml}`. `..` and absolute patterns are not allowed.',
  }),
  /** Where to search; null means the working directory. */
  directory: z._default(z.nullable(z.string()), null).register(z.globalRegistry, {
    description:
      'Directory to search in: absolute, or relative to the working directory. Defaults to the working directory. Must be inside the workspace.',
  }),
  /** Whether directories are listed too. */
  include_dirs: z._default(z.boolean(), true).register(z.globalRegistry, {
    description: 'Whether matching directories are returned too (default true).',
  }),
  /** Whether ignored entries are searched too. */
  include_ignored: z._default(z.boolean(), false).register(z.globalRegistry, {
    description:
      'Also search entries skipped by default: `.gitignore`/`.ignore` rules, `node_modules`, and version-control folders such as `.git` (default false).',
  }),
});

/** Validated Glob arguments. */
export type GlobParams = z.output<typeof GlobParams>;

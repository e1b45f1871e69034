import { GLOB_MAX_MATCHES } from '../limits.js';

// The Markdown the model reads, kept in a module (not a .md file) so it survives bundling into ESM and CJS.
// It is rendered once, with the limits filled in.

/** The description of the Glob tool. */
export const GLOB_DESCRIPTION = `Find files and directories by name with a glob pattern.

**Patterns** (micromatch syntax, case-sensitive):
- \`*\` matches any characters within one path segment, \`?\` one character, \`[abc]\` one of a set.
- \`**\` matches any number of directories, anywhere in the pattern: \`**/*.ts\`, \`src/**/index.js\`, \`src/**\`.
  A pattern ending in \`**\` returns everything below that directory.
- \`{a,b}\` braces expand to alternatives: \`*.{ts,tsx}\`, \`{src,test}/**/*.py\`.
- Wildcards match dot files and dot directories too (\`*\` matches \`.env\`).
- The pattern is relative to the search directory: absolute patterns and \`..\` segments are refused. To search
  elsewhere, set \`directory\` (it must be inside the working directory or an additional directory).

**Skipped by default**: version-control folders (\`.git\`, ...), \`node_modules\`, and anything ignored by
\`.gitignore\` or \`.ignore\` files (nested ones too). Set \`include_ignored\` to true to search them; the result says
when ignore rules hid some matches. Symbolic links to directories are listed but not followed.

**Output**: matching paths relative to the search directory, one per line, sorted by path. Set \`include_dirs\` to
false to list files only. At most ${GLOB_MAX_MATCHES} paths are returned; if there are more, narrow the pattern.

**Tips**: prefer a specific pattern (\`src/**/*.test.ts\`) to listing everything; use Grep to search file contents.
`;

import { GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS } from '../limits.js';

// The Markdown the model reads, kept in a module (not a .md file) so it survives bundling into ESM and CJS.
// It is rendered once, with the limits filled in.

/** The description of the Grep tool. */
export const GREP_DESCRIPTION = `Search file contents with a regular expression, powered by ripgrep.

**Always use this tool for content search** instead of running \`grep\` or \`rg\` in a shell: it is faster, stays
inside the workspace, and its output is sized for you.

**Pattern**: ripgrep (Rust regex) syntax — \`log.*Error\`, \`function\\s+\\w+\`. Escape literal special characters:
\`interface\\{\\}\` finds \`interface{}\`. Matching is per line; set \`multiline\` to true for patterns that span lines
(\`.\` then matches newlines too). Set \`-i\` for case-insensitive search.

**Where**: \`path\` is a file or directory inside the workspace (default: the working directory). Filter files with
\`glob\` (\`*.js\`, \`**/*.{ts,tsx}\`) or \`type\` (\`js\`, \`py\`, \`rust\`...). Hidden files are searched; version-control
folders are not; files ignored by \`.gitignore\`/\`.ignore\` are skipped unless \`include_ignored\` is true.

**Output modes**:
- \`files_with_matches\` (default): matching file paths, most recently modified first.
- \`content\`: matching lines as \`path:LINE:text\` (context lines as \`path-LINE-text\`, groups separated by \`--\`).
  \`-A\`, \`-B\`, \`-C\` add context lines after, before, or around each match; \`-n\` false drops line numbers.
- \`count_matches\`: \`path:COUNT\` per file, plus the total.
Paths are relative to the searched directory (a searched file is shown by its name).

**Limits**: \`head_limit\` lines per call (default ${GREP_DEFAULT_HEAD_LIMIT}; 0 for all), starting after \`offset\`
lines — when results are truncated, the message tells you the next offset. Lines are cut at ${GREP_MAX_LINE_CHARS}
characters and the output at ${GREP_MAX_OUTPUT_CHARS}. Files that may hold secrets (\`.env\`, private keys,
credentials) are left out of the results, and the message says so.

**Tips**: start with \`files_with_matches\` to find where something is, then use \`content\` on a narrower path or
glob. Use Glob to find files by name.
`;

import { MAX_EDIT_FILE_BYTES } from './limits.js';

// The Markdown the model reads. Kept as a module (not a .md file) so it survives bundling into ESM and CJS.
const GIB = MAX_EDIT_FILE_BYTES / (1024 * 1024 * 1024);

/** StrReplaceFile's description, rendered with its limits. */
export const STR_REPLACE_FILE_DESCRIPTION = `Replace exact text in an existing file.

**How to use it**
- Read the file with ReadFile first. Editing a file you have not read in this session, or one that changed since you read it, is refused.
- \`old\` is text copied from the file, without the line-number prefix ReadFile shows. Include enough surrounding lines to make it match exactly **one** place; an edit whose \`old\` matches several places is refused and the error lists their line numbers.
- \`new\` is inserted literally: \`$&\`, \`$1\` and \`$$\` are not special.
- To delete a whole line, give the line (without its line break) as \`old\` and an empty \`new\`: the line break goes too.
- Set \`replace_all\` to true to replace every exact occurrence, e.g. to rename a variable. It only ever replaces exact matches.
- Pass a list in \`edit\` to make several changes at once. They apply in order, each to the result of the previous one. If any edit fails, none is applied and the error names the failing edit (numbered from 1).

**Matching**
The text is matched exactly first. When there is no exact match, and only if the looser match is unique, it is matched:
1. ignoring the difference between \`\\r\\n\` and \`\\n\` line breaks;
2. then treating curly quotes (‘ ’ “ ”) as straight ones; the file's quote style is kept in \`new\`;
3. then ignoring trailing whitespace and a uniform indentation shift (the same indentation added to or removed from every line); \`new\` is re-indented by the same shift. Tabs never match spaces.
The result says when a looser level was used. When nothing matches, the error shows the closest text and its line number; copy from it.

**Good to know**
- The file keeps its encoding, byte order mark, line breaks, permissions and symlinks; only the replaced text changes.
- Files larger than ${GIB} GiB and Jupyter notebooks (\`.ipynb\`) cannot be edited with this tool.
- To write a new file or replace a file's whole content, use WriteFile.
`;

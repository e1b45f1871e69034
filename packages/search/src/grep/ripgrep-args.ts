import { GREP_MAX_COLUMNS, GREP_MAX_LINE_CHARS, VCS_DIRECTORIES } from '../limits.js';
import type { GrepParams } from './grep-params.js';

/**
 * ripgrep's command line for a Grep call (docs/grep.md). Output always uses `--null` after file names so paths with `:`
 * parse unambiguously, and content mode always asks for line numbers (they tell matches from context lines; they are
 * dropped again when `-n` is false). Content mode prints only the start of a line longer than the line cap, with the
 * first match's column and each line's byte offset, so a long line never fills ripgrep's output and can be shown from
 * near its match (docs/grep.md, "Long lines"). `target` is the file name, or `undefined` to search the working
 * directory.
 */
export function buildRipgrepArgs(params: GrepParams, target: string | undefined): string[] {
  const args = ['--no-config', '--hidden', '--null', '--no-heading', '--color', 'never', '--crlf'];
  switch (params.output_mode) {
    case 'content':
      args.push('--line-number', '--column', '--byte-offset', '--with-filename');
      args.push('--max-columns', String(GREP_MAX_LINE_CHARS), '--max-columns-preview');
      if (params['-C'] !== null) args.push('--context', String(params['-C']));
      if (params['-B'] !== null) args.push('--before-context', String(params['-B']));
      if (params['-A'] !== null) args.push('--after-context', String(params['-A']));
      break;
    case 'files_with_matches':
      args.push('--files-with-matches', '--max-columns', String(GREP_MAX_COLUMNS));
      break;
    case 'count_matches':
      args.push('--count-matches', '--with-filename', '--max-columns', String(GREP_MAX_COLUMNS));
      break;
  }
  if (params['-i']) args.push('--ignore-case');
  if (params.multiline) args.push('--multiline', '--multiline-dotall');
  // `.gitignore` counts in any workspace, as it does for Glob, not only inside a git repository.
  if (params.include_ignored) args.push('--no-ignore');
  else args.push('--no-require-git');
  if (params.type !== null) args.push('--type', params.type);
  if (params.glob !== null) args.push('--glob', ripgrepGlob(params.glob));
  // Last, so a user glob cannot bring version-control folders back (later globs win in ripgrep).
  for (const dir of VCS_DIRECTORIES) args.push('--glob', `!${dir}`);
  args.push('--', params.pattern);
  if (target !== undefined) args.push(target);
  return args;
}

/**
 * `glob` as ripgrep must be given it to read it as the portable search does: ripgrep takes a glob starting with `#` for
 * a comment, which filters nothing (`#notes.md` searched every file); escaped, the `#` is the name's first character.
 */
function ripgrepGlob(glob: string): string {
  return glob.startsWith('#') ? `\\${glob}` : glob;
}

/**
 * Whether ripgrep reads `glob` as Grep's other matchers do. Not one ending in an escaped white-space character other
 * than a space (a name taken literally, `"a\t"` given back): ripgrep drops white space at a glob's end, keeping only an
 * escaped space, and the escape left dangling is an error.
 */
export function ripgrepTakesGlob(glob: string): boolean {
  return !/\\[\s\u0085]$/.test(glob) || glob.endsWith('\\ ');
}

/**
 * Most bytes of Grep's own arguments (its pattern, glob and type) given to ripgrep on its command line. Linux takes no
 * single argument past 128 KiB (`MAX_ARG_STRLEN`: the spawn fails with `E2BIG`), and over SSH the whole command is one
 * argument of the host's shell; the portable search takes any length.
 */
export const RIPGREP_ARGUMENTS_MAX_BYTES = 64 * 1024;

/** Whether ripgrep can be given the pattern, glob and type of `params` on its command line. */
export function ripgrepTakesArguments(params: GrepParams): boolean {
  const texts = [params.pattern, params.glob ?? '', params.type ?? ''];
  return texts.reduce((bytes, text) => bytes + Buffer.byteLength(text), 0) <= RIPGREP_ARGUMENTS_MAX_BYTES;
}

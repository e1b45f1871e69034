import type Picomatch from 'picomatch';
import { picomatch } from '../fs/load-on-use.js';
import {
  globDotSegmentProblem,
  globEmptySegmentProblem,
  globHomeProblem,
  globNegatedProblem,
  EMPTY_GLOB_PROBLEM,
} from '../errors.js';

/** One glob of a permission rule, compiled: whether it is absolute, and the test of a `/`-separated subject. */
export interface RuleGlob {
  /** Matched against the real absolute path; otherwise against the path relative to a workspace directory. */
  absolute: boolean;
  test(subject: string): boolean;
}

/** How globs are matched: case-insensitively (Windows, as the path policy), and whether `C:/` starts an absolute one. */
export interface RuleGlobOptions {
  nocase: boolean;
  windows: boolean;
}

const WINDOWS_ABSOLUTE = /^[A-Za-z]:\//;

/** What is wrong with `glob` as a rule's glob (the problem's words, for the rule's error), or `undefined`. */
export function globProblem(glob: string): string | undefined {
  if (glob === '') return EMPTY_GLOB_PROBLEM;
  if (glob.startsWith('!')) return globNegatedProblem(glob);
  if (glob.startsWith('~')) return globHomeProblem(glob);
  const segments = glob.split('/');
  if (segments.some((segment) => segment === '.' || segment === '..')) return globDotSegmentProblem(glob);
  // A leading `/` (absolute) and a trailing one (a directory) leave an empty first or last segment; any other is `//`.
  if (segments.slice(1, -1).includes('')) return globEmptySegmentProblem(glob);
  return undefined;
}

/**
 * `glob` in picomatch's syntax with gitignore's meaning: `*`, `?`, `[...]` (and `[!...]`, picomatch's `[^...]`) and
 * `\` escapes keep their sense; the characters that are literal in gitignore but special to picomatch (parentheses,
 * braces, `|`) are escaped, so `src/(app)/**` names the directory `(app)`. An unclosed `[` is a literal.
 */
function picomatchSource(glob: string): string {
  let out = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '\\' && index + 1 < glob.length) {
      out += char + glob[++index]!;
    } else if (char === '[') {
      const close = glob.indexOf(']', index + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      const body = glob.slice(index + 1, close);
      out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
      index = close;
    } else if ('(){}|'.includes(char)) {
      out += `\\${char}`;
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * Compiles a glob a rule names, as .gitignore reads it: one without a `/` but a trailing one matches a name at any
 * depth (`*.lock`), one with a `/` is anchored at the workspace directory (`src/**`), and one that names a directory
 * matches everything under it too (`secrets`, `secrets/`). Unlike .gitignore, a trailing `/` does not restrict the
 * glob to directories (a path alone does not say which it names), and a leading `/` (or `C:/` on Windows) makes the glob absolute. The glob must have passed
 * {@link globProblem}.
 */
export function compileRuleGlob(glob: string, options: RuleGlobOptions): RuleGlob {
  const absolute = glob.startsWith('/') || (options.windows && WINDOWS_ABSOLUTE.test(glob));
  // A path alone does not tell a directory from a file, so `dist/` names `dist` as `dist` does.
  const trimmed = glob.replace(/\/+$/, '');
  let source = picomatchSource(trimmed);
  if (!absolute && !trimmed.includes('/')) source = `**/${source}`;
  const sources = [source, `${source}/**`];
  const tests = sources.map((each) =>
    picomatch()(each, {
      dot: true,
      nocase: options.nocase,
      nobrace: true,
      noextglob: true,
      nonegate: true,
      // Subjects are always `/`-separated, and a `\` in a glob is an escape, whatever the host's platform.
      windows: false,
    } as Picomatch.PicomatchOptions),
  );
  return { absolute, test: (subject) => tests.some((test) => test(subject)) };
}

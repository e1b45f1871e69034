// The built-in table of sensitive files is judged on every file a tool opens or lists, from the first call of every
// process: compiling its globs with picomatch cost each process picomatch's loading and twenty compilations (about
// 4 ms of CPU, `pnpm bench coldStart`). Its globs use a small part of the syntax, compiled here directly.

/** What a table glob may hold besides literal text: `*`, `?` and `{a,b}` (no nesting); never a `/`. */
const SPECIAL = /[*?{},[\]\\!()|+@/]/;

function escapeLiteral(text: string): string {
  return text.replace(/[.^$]/g, '\\$&');
}

/**
 * A glob of the built-in table as a regular expression on a basename, with picomatch's meaning of it (`dot: true`: a
 * wildcard matches a leading dot too, never `.` or `..` alone): `*` any run of characters, `?` one, `{a,b}` one of
 * the alternatives. Any other special character throws: the table is ours, and a new row needing more of the syntax
 * must be compiled by picomatch instead.
 */
export function basenameGlobRegExp(glob: string, nocase: boolean): RegExp {
  let source = '';
  for (let index = 0; index < glob.length;) {
    const char = glob[index]!;
    if (char === '*') {
      source += '[^/]*';
      index++;
    } else if (char === '?') {
      source += '[^/]';
      index++;
    } else if (char === '{') {
      const close = glob.indexOf('}', index);
      const alternatives = close === -1 ? [] : glob.slice(index + 1, close).split(',');
      if (alternatives.length < 2 || alternatives.some((each) => each === '' || SPECIAL.test(each))) {
        throw new Error(`Unsupported glob in the sensitive-file table: ${glob}`);
      }
      source += `(?:${alternatives.map(escapeLiteral).join('|')})`;
      index = close + 1;
    } else if (SPECIAL.test(char)) {
      throw new Error(`Unsupported glob in the sensitive-file table: ${glob}`);
    } else {
      const next = glob.slice(index).search(SPECIAL);
      const end = next === -1 ? glob.length : index + next;
      source += escapeLiteral(glob.slice(index, end));
      index = end;
    }
  }
  // A leading wildcard never stands for a whole `.` or `..`, nor for nothing at all (picomatch's `(?=.)`).
  const guard = glob.startsWith('*') || glob.startsWith('?') ? '(?!\\.{1,2}$)(?=.)' : '';
  return new RegExp(`^${guard}${source}$`, nocase ? 'i' : '');
}

import { readShownParts } from './normalize-input.js';

/**
 * What a glob reads as syntax, in Glob's matchers and in ripgrep's `--glob`: wildcards, classes, braces, extglobs
 * (micromatch reads `|` and a double-quoted string as syntax too), `!` and `#`, which start a negation or (in ripgrep) a
 * comment, and the backslash that escapes; and white space at the end, which ripgrep drops unless it is escaped.
 */
const GLOB_SYNTAX = /[\\*?[\]{}()!#|"]|[\s\u0085]$/g;

/** A glob matching `name` and nothing else: each character a glob reads as syntax escaped with `\`. */
export function literalGlob(name: string): string {
  return name.replace(GLOB_SYNTAX, '\\$&');
}

/**
 * A glob argument (Glob's `pattern`, Grep's `glob`) read back from the form paths are shown in
 * (docs/paths.md#how-paths-are-shown), as a path argument is ({@link readShownParts}): a part in the quoted form that
 * starts the glob or follows a `/`, and ends it or is followed by a `/`, stands for the name it shows, taken
 * literally (`"a[1]\tb.txt"`, `src/"we\"ird.txt"`, `"d\udc80"/*.txt`); the rest is glob syntax as it is. So a path
 * Glob or Grep shows, given back as a glob, matches that file.
 */
export function readShownGlob(glob: string): string {
  return readShownParts(glob, literalGlob);
}

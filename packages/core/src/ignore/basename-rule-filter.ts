// A quick, conservative test of whether any basename rule of an ignore file (one with no `/` before its end) could
// match a given name. In a source tree nearly every name matches no rule at all (`index.ts`, `README.md`), and its
// verdict is then 'none' without asking the `ignore` package, which runs one regular expression per rule: on the
// corpus of `pnpm bench glob` (about 13,000 distinct names, up to 60 rules per file) that was about 60% of the time
// spent in ignore matching. A name this test lets through still gets the package's verdict.

import { ruleLineKind } from './path-rule-filter.js';

/** Characters that make a rule something other than a literal name or one `*` between literal parts. */
const WILDCARD = /[*?[\]\\]/;

/** `true` when a basename rule might match `name` (as a file or a directory); `false` only when none can. */
export type BasenameRuleTest = (name: string) => boolean;

/** One `*` between literal parts: `*.log`, `npm-debug.log*`, `tsconfig*.json`. */
interface StarRule {
  head: string;
  tail: string;
}

/**
 * A test over every basename rule of the given ignore-file texts, or `null` when some rule is beyond it (character
 * classes, `?`, escapes, several `*`, leading or trailing white space): then every name goes to the package.
 */
export function basenameRuleFilter(texts: readonly string[]): BasenameRuleTest | null {
  const literals = new Set<string>();
  const starRules: StarRule[] = [];
  for (const text of texts) {
    for (const raw of text.split(/\r?\n/)) {
      // Exactly the lines `IgnoreRuleSet` keeps among its basename rules: blanks and comments match nothing.
      if (ruleLineKind(raw) !== 'basename') continue;
      const line = raw.trim();
      // Leading white space is part of a pattern, trailing white space is trimmed unless escaped: not worth it.
      if (line !== raw) return null;
      const body = (line.startsWith('!') ? line.slice(1) : line).replace(/\/+$/, '');
      const star = body.indexOf('*');
      if (star < 0) {
        if (body === '' || WILDCARD.test(body)) return null;
        literals.add(body);
        continue;
      }
      const head = body.slice(0, star);
      const tail = body.slice(star + 1);
      if (WILDCARD.test(head) || WILDCARD.test(tail)) return null;
      starRules.push({ head, tail });
    }
  }
  return (name) => {
    if (literals.has(name)) return true;
    for (const { head, tail } of starRules) {
      if (name.length >= head.length + tail.length && name.startsWith(head) && name.endsWith(tail))
        return true;
    }
    return false;
  };
}

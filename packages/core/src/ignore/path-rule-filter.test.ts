import fc from 'fast-check';
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { IgnoreRuleSet } from './ignore-rules.js';
import { pathRuleFilter } from './path-rule-filter.js';

// ` #a` makes lines like ` #a/b`: a pattern, not a comment (only `#` first makes one).
const NAMES = ['a', 'b', 'lib', 'x.js', 'y.ts', 'node_modules', ' #a'] as const;
const ruleSegment = fc.constantFrom(
  ...NAMES,
  '*',
  '*.js',
  'x.*',
  'l*b',
  'l*',
  '?',
  '**',
  '[ab]',
  '',
  'x*.*',
  '*s',
);
/** Basename rules and rules on paths (anchored, `**`-prefixed, dir-only, negated), mixed in one file. */
const rule = fc
  .tuple(
    fc.boolean(),
    fc.constantFrom('', '/', '**/', '***/'),
    fc.array(ruleSegment, { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(
    ([negated, lead, segments, dirOnly]) =>
      `${negated ? '!' : ''}${lead}${segments.join('/')}${dirOnly ? '/' : ''}`,
  );
const ruleFile = fc.array(rule, { minLength: 1, maxLength: 8 }).map((rules) => `${rules.join('\n')}\n`);
const walkPath = fc.tuple(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }), fc.boolean());

describe('path rule prefilter', () => {
  it('gives the verdict of all the rules for every path the walk can reach', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleFile, { minLength: 1, maxLength: 2 }),
        walkPath,
        async (texts, [segments, isDirectory]) => {
          const reference = ignore({ ignorecase: false });
          for (const text of texts) reference.add(text);
          // The walk never enters a directory these rules ignore: such paths are never asked about.
          for (let depth = 1; depth < segments.length; depth++) {
            if (reference.test(`${segments.slice(0, depth).join('/')}/`).ignored) return;
          }
          const localPath = segments.join('/');
          const expected = reference.test(localPath + (isDirectory ? '/' : ''));
          const verdict = IgnoreRuleSet.create(texts).verdict(
            localPath,
            segments[segments.length - 1] as string,
            isDirectory,
          );
          expect(verdict, `${JSON.stringify(texts)} ${localPath}`).toBe(
            expected.ignored ? 'ignored' : expected.unignored ? 'unignored' : 'none',
          );
        },
      ),
    );
  });

  it('reads a run of stars as `**`, and a line with a space before its `#` as a pattern, as git does', () => {
    const verdict = (rules: string, localPath: string) =>
      IgnoreRuleSet.create([rules]).verdict(
        localPath,
        localPath.slice(localPath.lastIndexOf('/') + 1),
        false,
      );
    expect(verdict('***/*.*\n', 'x.y.z')).toBe('ignored');
    expect(verdict('***/*.js\n', 'a/b/y.js')).toBe('ignored');
    expect(verdict('r/***/z\n', 'r/s/t/z')).toBe('ignored');
    expect(verdict('*\n!/***\n', 'a')).toBe('unignored');
    expect(verdict(' #a/b\n', ' #a/b')).toBe('ignored');
    expect(verdict('#a/b\n', '#a/b')).toBe('none');
  });

  it('rules a path out only when no path rule can match it', () => {
    const filter = pathRuleFilter([
      '*.log\n/packages/*/lib\n.yarn/cache\n!**/fixtures/**/node_modules\nsrc/**/*.gen.ts\n',
    ]);
    expect(filter).not.toBeNull();
    const mayMatch = (localPath: string, of = filter) => {
      const cut = localPath.lastIndexOf('/');
      return of?.(cut < 0 ? '' : localPath.slice(0, cut))?.(localPath.slice(cut + 1)) ?? false;
    };
    expect(mayMatch('packages/core/lib')).toBe(true);
    expect(mayMatch('packages/core/src')).toBe(false);
    expect(mayMatch('other/core/lib')).toBe(false);
    expect(mayMatch('.yarn/cache')).toBe(true);
    expect(mayMatch('.yarn/cache/x')).toBe(false);
    expect(mayMatch('a/fixtures/b/node_modules')).toBe(true);
    expect(mayMatch('src/a/b.gen.ts')).toBe(true);
    expect(mayMatch('src/a/b.ts')).toBe(false);
    expect(mayMatch('x.log')).toBe(false);
    const tails = pathRuleFilter(['**/.yarn/*\n**/.pnp.*\n']);
    expect(mayMatch('a/.yarn/x', tails)).toBe(true);
    expect(mayMatch('a/b/x', tails)).toBe(false);
    expect(mayMatch('src/.pnp.cjs', tails)).toBe(true);
    expect(mayMatch('src/pnp.cjs', tails)).toBe(false);
    expect(pathRuleFilter(['*.log\nbuild/\n# a/b\n'])).toBeNull();
    // Escapes and leading spaces are never second-guessed.
    expect(mayMatch('c/d', pathRuleFilter(['a\\*/b\n']))).toBe(true);
    // A folder no anchored rule names, with no rule by last segment or without one: nothing to test there.
    expect(pathRuleFilter(['/packages/*/lib\n'])?.('other/x')).toBeNull();
  });
});

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
          const verdict = (await IgnoreRuleSet.create(texts)).verdict(
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

  it('reads a run of stars as `**`, and a line with a space before its `#` as a pattern, as git does', async () => {
    const verdict = async (rules: string, localPath: string) =>
      (await IgnoreRuleSet.create([rules])).verdict(
        localPath,
        localPath.slice(localPath.lastIndexOf('/') + 1),
        false,
      );
    expect(await verdict('***/*.*\n', 'x.y.z')).toBe('ignored');
    expect(await verdict('***/*.js\n', 'a/b/y.js')).toBe('ignored');
    expect(await verdict('r/***/z\n', 'r/s/t/z')).toBe('ignored');
    expect(await verdict('*\n!/***\n', 'a')).toBe('unignored');
    expect(await verdict(' #a/b\n', ' #a/b')).toBe('ignored');
    expect(await verdict('#a/b\n', '#a/b')).toBe('none');
  });

  it('rules a path out only when no path rule can match it', () => {
    const test = pathRuleFilter([
      '*.log\n/packages/*/lib\n.yarn/cache\n!**/fixtures/**/node_modules\nsrc/**/*.gen.ts\n',
    ]);
    expect(test).not.toBeNull();
    const mayMatch = (localPath: string) =>
      test?.(localPath, localPath.slice(localPath.lastIndexOf('/') + 1));
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
    expect(tails?.('a/.yarn/x', 'x')).toBe(true);
    expect(tails?.('a/b/x', 'x')).toBe(false);
    expect(tails?.('src/.pnp.cjs', '.pnp.cjs')).toBe(true);
    expect(tails?.('src/pnp.cjs', 'pnp.cjs')).toBe(false);
    expect(pathRuleFilter(['*.log\nbuild/\n# a/b\n'])).toBeNull();
    // Escapes and leading spaces are never second-guessed.
    expect(pathRuleFilter(['a\\*/b\n'])?.('c/d', 'd')).toBe(true);
  });
});

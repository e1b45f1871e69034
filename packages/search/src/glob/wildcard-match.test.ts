import fc from 'fast-check';
import { readShownGlob } from '@kimi-tools/core/toolkit';
import micromatch from 'micromatch';
import { describe, expect, it } from 'vitest';
import { compilePathMatcher, compileSegmentMatcher } from './wildcard-match.js';

const OPTIONS = { dot: true } as const;

/** Patterns of the syntax the matcher takes over from micromatch (classes left out: micromatch misreads `[!a]`). */
const segmentPattern = fc
  .array(fc.constantFrom('a', 'b', '.', '*', '?', '**'), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''));
/**
 * Not compared with micromatch here (random seeds found each; fixed tests below and in the compileGlob tests): a
 * leading `./` and a trailing `/**`, which Glob rewrites before they reach the matcher (micromatch lets `a/**` match
 * `a` but not `*` + `/**`); three stars or more in a row, after which micromatch drops a character (`***a.`
 * matches `a`); and `**.` opening a segment, which micromatch lets cross folders (`**.a` matches `a/.a`, while `**a`
 * does not match `b/a`): within a segment `**` is `*`.
 */
const pattern = fc
  .array(fc.oneof(segmentPattern, fc.constant('**')), { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join('/'))
  .filter(
    (glob) =>
      !glob.startsWith('./') &&
      !glob.endsWith('/**') &&
      !glob.includes('***') &&
      !glob.split('/').some((segment) => segment.startsWith('**.')),
  );
const path = fc
  .array(
    fc.array(fc.constantFrom('a', 'b', '.'), { minLength: 1, maxLength: 5 }).map((chars) => chars.join('')),
    { minLength: 1, maxLength: 5 },
  )
  .map((segments) => segments.join('/'))
  .filter((candidate) => !candidate.split('/').some((segment) => segment === '.' || segment === '..'));

describe('compilePathMatcher', () => {
  it('agrees with micromatch on literals, `*`, `?` and `**`', () => {
    fc.assert(
      fc.property(pattern, path, (glob, candidate) => {
        const matcher = compilePathMatcher(glob);
        expect(matcher).not.toBeNull();
        expect(matcher?.(candidate), `${glob} ${candidate}`).toBe(
          micromatch.isMatch(candidate, glob, OPTIONS),
        );
      }),
    );
  });

  it('matches classes and escapes, and leaves extglobs and negations to micromatch', () => {
    const match = (glob: string, candidate: string) => compilePathMatcher(glob)?.(candidate);
    expect(match('[ab].txt', 'b.txt')).toBe(true);
    expect(match('[a-c]x', 'cx')).toBe(true);
    expect(match('[!a]x', 'bx')).toBe(true);
    expect(match('[!a]x', 'ax')).toBe(false);
    expect(match('[^a]x', 'ax')).toBe(false);
    expect(match('a\\*b', 'a*b')).toBe(true);
    expect(match('a\\*b', 'axb')).toBe(false);
    for (const glob of ['+(a|b)', '!*.ts', '[[:alpha:]]', '{a,b}', 'a/[b']) {
      expect(compilePathMatcher(glob), glob).toBeNull();
    }
    expect(compileSegmentMatcher('*.ts')?.('a.ts')).toBe(true);
    // Three stars are one star; micromatch drops the character after them and says `a` matches.
    expect(match('***a.', 'a')).toBe(false);
    expect(match('***a.', 'xa.')).toBe(true);
    expect(match('***/a.', 'x/a.')).toBe(true);
    expect(match('***/a.', 'x/a')).toBe(false);
    expect(match('**.a', 'a/.a')).toBe(false);
    expect(match('**.a', 'x.a')).toBe(true);
    expect(compileSegmentMatcher('@(a)')).toBeNull();
  });

  it('agrees with micromatch on one segment, literal or around one `*` (the string-comparison shortcut)', () => {
    const oneStar = fc
      .tuple(fc.array(fc.constantFrom('a', 'b', '.'), { maxLength: 3 }), fc.boolean())
      .chain(([head, withStar]) =>
        fc
          .array(fc.constantFrom('a', 'b', '.'), { maxLength: 3 })
          .map((tail) => `${head.join('')}${withStar ? '*' : ''}${tail.join('')}`),
      )
      .filter((glob) => glob !== '' && glob !== '.' && glob !== '..');
    const name = fc
      .array(fc.constantFrom('a', 'b', '.'), { minLength: 1, maxLength: 6 })
      .map((chars) => chars.join(''))
      .filter((candidate) => candidate !== '.' && candidate !== '..');
    fc.assert(
      fc.property(oneStar, name, (glob, candidate) => {
        expect(compileSegmentMatcher(glob)?.(candidate), `${glob} ${candidate}`).toBe(
          micromatch.isMatch(candidate, glob, OPTIONS),
        );
      }),
    );
    expect(compileSegmentMatcher('*')?.('')).toBe(false);
  });

  it('answers in bounded time where a backtracking regular expression does not', () => {
    const name = 'a'.repeat(200);
    expect(compilePathMatcher('*a*a*a*a*a*a*a*ab')?.(name)).toBe(false);
    expect(compilePathMatcher('*a*a*a*a*a*a*a*a')?.(name)).toBe(true);
    const deep = Array.from({ length: 100 }, () => 'a').join('/');
    expect(compilePathMatcher('**/a/**/a/**/a/**/a/**/a/**/b')?.(deep)).toBe(false);
  });
});

// docs/glob.md#matching: a name given back in its quoted form is taken literally (core's `readShownGlob`), whatever
// glob syntax it holds: the escapes keep it on the bounded matcher, which reads it as that one name and nothing else.
// (micromatch, which reads such a glob only beside an extglob, misreads `\\\*`, an escaped backslash and star.)
describe('a name taken literally', () => {
  const tricky = fc
    .array(fc.constantFrom(...'a*?[]{},()|!#"\\+@ \t.'), { minLength: 1, maxLength: 8 })
    .map((chars) => chars.join(''));

  it('matches that name alone, on the bounded matcher', () => {
    fc.assert(
      fc.property(tricky, tricky, (name, other) => {
        const glob = readShownGlob(JSON.stringify(name));
        const matches = compilePathMatcher(glob);
        expect(matches, glob).not.toBeNull();
        expect(matches!(name), glob).toBe(true);
        expect(matches!(other), `${glob} against ${other}`).toBe(other === name);
      }),
    );
  });
});

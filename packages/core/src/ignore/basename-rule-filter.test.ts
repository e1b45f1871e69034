import fc from 'fast-check';
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { basenameRuleFilter } from './basename-rule-filter.js';
import { IgnoreRuleSet } from './ignore-rules.js';

/** Names the rules below spell out, and names that look like rule syntax (readdir may return any of them). */
const NAMES = [
  'a',
  'ab',
  'lib',
  'l1b',
  'x.js',
  'x.',
  'x.log',
  'npm-debug.log1',
  '.env',
  'a b',
  'a ',
  ' a',
  '#a',
  '!a',
  '*',
  '[ab]',
  '...',
];
/** Segments the prefilter reads (literal names, one `*` between literal parts) and segments it leaves alone. */
const PLAIN_SEGMENTS = [
  'a',
  'ab',
  'lib',
  'x.js',
  '.env',
  '*',
  '*.js',
  '*.log',
  'x.*',
  'npm-debug.log*',
  'l*b',
  '...',
];
const OTHER_SEGMENTS = ['?', '**', '[ab]', '[!a]b', '[a-c]*', '*.*', '\\*', '\\[ab]', 'a\\ b', ''];
const plainRule = fc
  .tuple(
    fc.constantFrom('', '', '!', '#', '/', '**/'),
    fc.array(fc.constantFrom(...PLAIN_SEGMENTS), { minLength: 1, maxLength: 2 }),
    fc.constantFrom('', '', '/'),
  )
  .map(([lead, segments, trail]) => `${lead}${segments.join('/')}${trail}`);
/** Plain rules with white space around them: leading spaces are part of a pattern, trailing ones are not. */
const spacedRule = fc
  .tuple(fc.constantFrom(' ', '', '\t'), plainRule, fc.constantFrom(' ', '', '\t'))
  .map(([lead, body, trail]) => `${lead}${body}${trail}`);
/** Negations, escaped `!` and `#`, comments, anchored and `**` rules, dir-only rules, leading and trailing spaces. */
const anyRule = fc
  .tuple(
    fc.constantFrom('', '', '!', '\\!', '#', ' #', '\\#', ' ', '/', '**/', '!/'),
    fc.array(fc.constantFrom(...PLAIN_SEGMENTS, ...OTHER_SEGMENTS), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('', '', '/', ' ', '  ', '\\ ', '\t', '/ '),
  )
  .map(([lead, segments, trail]) => `${lead}${segments.join('/')}${trail}`);
/** Files of plain rules only (the prefilter at work) and files of any rules (the prefilter mostly stands aside). */
const ruleFile = fc
  .tuple(
    fc.oneof(
      fc.array(plainRule, { minLength: 1, maxLength: 8 }),
      fc.array(fc.oneof(plainRule, spacedRule), { minLength: 1, maxLength: 4 }),
      fc.array(fc.oneof(plainRule, anyRule), { minLength: 1, maxLength: 8 }),
    ),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([rules, eol]) => `${rules.join(eol)}${eol}`);
/** Rule files, and a walk path of names among {@link NAMES} and the files' own lines as names (spaces and all). */
const filesAndPath = fc.array(ruleFile, { minLength: 1, maxLength: 2 }).chain((texts) => {
  const lineNames = texts
    .flatMap((text) => text.split(/\r?\n/))
    .map((line) => line.replace(/^!/, '').replace(/\/+$/, ''))
    .filter((line) => line !== '' && !line.includes('/'));
  const name = fc.constantFrom(...NAMES, ...lineNames);
  return fc.tuple(fc.constant(texts), fc.array(name, { minLength: 1, maxLength: 3 }), fc.boolean());
});

/** A verdict, or `throws`. */
function outcome(test: () => { ignored: boolean; unignored: boolean } | string): string {
  try {
    const result = test();
    if (typeof result === 'string') return result;
    return result.ignored ? 'ignored' : result.unignored ? 'unignored' : 'none';
  } catch {
    return 'throws';
  }
}

describe('basename rule prefilter', () => {
  it('keeps the verdict of the ignore package for every name and path the walk can reach', async () => {
    await fc.assert(
      fc.asyncProperty(filesAndPath, async ([texts, segments, isDirectory]) => {
        const reference = ignore({ ignorecase: false });
        for (const text of texts) reference.add(text);
        // The walk never enters a directory these rules ignore: such paths are never asked about.
        for (let depth = 1; depth < segments.length; depth++) {
          const parent = outcome(() => reference.test(`${segments.slice(0, depth).join('/')}/`));
          if (parent === 'ignored' || parent === 'throws') return;
        }
        const localPath = segments.join('/');
        const name = segments[segments.length - 1] as string;
        const rules = IgnoreRuleSet.create(texts);
        expect(
          outcome(() => rules.verdict(localPath, name, isDirectory)),
          `${JSON.stringify(texts)} ${localPath}`,
        ).toBe(outcome(() => reference.test(localPath + (isDirectory ? '/' : ''))));
      }),
      { numRuns: 3000 },
    );
  });

  it('rules a name out only when no basename rule can match it', () => {
    const test = basenameRuleFilter([
      '# logs\n*.log\nnpm-debug.log*\n!keep\ndist/\nsrc/gen\n',
      'tsconfig*.json\n',
    ]);
    expect(test?.('x.log')).toBe(true);
    expect(test?.('npm-debug.log.1')).toBe(true);
    expect(test?.('keep')).toBe(true);
    expect(test?.('dist')).toBe(true);
    expect(test?.('tsconfig.base.json')).toBe(true);
    expect(test?.('index.ts')).toBe(false);
    expect(test?.('logs')).toBe(false);
    // A path rule is the path filter's business.
    expect(test?.('gen')).toBe(false);
    // Character classes, `?`, escapes, several stars and spaces around a rule are never second-guessed.
    for (const text of ['[ab]\n', 'a?\n', '\\#a\n', '*.*\n', ' a\n', 'a \n']) {
      expect(basenameRuleFilter([text])).toBeNull();
    }
  });
});

import { localFileSystem } from '@kimi-tools/core/fs';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutTree } from '../../__fixtures__/backend-tree.js';
import { Grep } from '../grep.js';

// ripgrep's regular expressions, translated for the portable search, match what ripgrep matches: each pattern's
// matching lines and number of matches, on lines chosen to tell the translations apart.
const LINES = [
  'hello world',
  'Hello World',
  'HELLO',
  'foo_bar baz-qux',
  'tab\there',
  'trailing space ',
  '123 456 7890',
  '٣٤٥ arabic digits',
  'café naïve résumé',
  'ΑΒΓ αβγ Greek',
  'straße STRASSE',
  'emoji 🦓 zebra 🦓',
  'aaa',
  'abcabc',
  'a.b*c+d?e',
  '(parens) [brackets] {braces}',
  'back\\slash',
  'x',
  '',
  'end.',
  'KELVIN K k',
  'crlf line\r',
  'lone\rcarriage',
  'word-boundary_test',
  'ünïcödé wörds',
];

const PATTERNS = [
  'hello',
  '(?i)hello',
  'Hel+o',
  'l{2}',
  'l{1,}o',
  'a{2,3}',
  'a*?',
  '^$',
  '^',
  '$',
  '\\.$',
  '^H',
  '\\bworld\\b',
  '\\Bor',
  '\\<wor',
  'd\\>',
  '\\b{start}w',
  '\\d+',
  '[0-9]+',
  '\\D+',
  '\\w+',
  '\\W+',
  '\\s',
  '\\S+',
  '.',
  '.{3}',
  '[[:alpha:]]+',
  '[[:^alpha:]]',
  '[[:upper:]][[:lower:]]+',
  '[a-z&&[^aeiou]]+',
  '[\\p{Greek}--[α]]',
  '\\p{Greek}+',
  '\\p{Lu}',
  '\\pL+',
  '\\P{L}+',
  '\\p{sc=Greek}',
  '[^a-z ]+',
  '[\\w--\\d]+',
  'é',
  '(?i)É',
  '(?i)straße',
  '(?i)k',
  '(?i:h)ello',
  'h(?i)ELLO',
  '(?-i)hello',
  '(?x) h e l l o',
  '(?x) h e l l o  # a comment\n',
  '(?U)a+',
  '(?U)a+?',
  '\\x{1F993}',
  '\\u0041|\\x42',
  '🦓',
  'a|b|c',
  '(ab)+',
  '(?:abc){2}',
  '(?P<word>\\w+)-(?<other>\\w+)',
  '\\.\\*\\+\\?',
  '\\(\\w+\\)',
  '\\[|\\]',
  '\\{braces\\}',
  '\\\\',
  '\\t',
  'space $',
  '\\s$',
  'line$',
  '(?R)line$',
  '^lone',
  '^carriage',
  '\\Acr',
  'carriage\\z',
  'x*',
  '(?s).',
  '[\\s\\S]',
  '(?m)^end',
  '(?-m)^end',
];

let tree: TempWorkspace;
const ripgrep = () => new Grep(tree.runtime());
let portable: Grep;

beforeAll(async () => {
  tree = await createTempWorkspace();
  await layOutTree(localFileSystem, tree.workDir, { files: { 'lines.txt': `${LINES.join('\n')}\n` } });
  portable = new Grep(tree.runtime(), { rgPath: '/nonexistent/rg' });
});

afterAll(() => tree.cleanup());

/** Patterns both searches refuse with the same words (ripgrep's start with `rg: `). */
const REFUSED = [
  '(',
  'a)',
  '[a',
  '[z-a]',
  'a{2,1}',
  'a{',
  'a{2',
  '*a',
  '\\y',
  '(?z)a',
  '\\p{Foo}',
  '[a-\\d]',
  '\\xZZ',
  '(?P<>a)',
  '(?x) h e l l o  # comment',
  'ab\ncd{2,1}',
];

describe.concurrent('the portable search’s regular expressions', () => {
  it.each(REFUSED)('%s is refused as ripgrep refuses it', async (pattern) => {
    const expected = await ripgrep().call({ pattern });
    expect(expected).toMatchObject({ isError: true, brief: 'Failed to grep' });
    expect(await portable.call({ pattern })).toEqual({
      ...expected,
      message: expected.message.replace('Error: rg: ', 'Error: '),
    });
  });

  it.each(PATTERNS)('%s matches what ripgrep matches', async (pattern) => {
    for (const output_mode of ['content', 'count_matches'] as const) {
      const call = { pattern, output_mode, head_limit: 0 };
      const expected = await ripgrep().call(call);
      expect(expected.isError, expected.message).toBe(false);
      const actual = await portable.call(call);
      expect(actual, output_mode).toEqual({
        ...expected,
        extras: { ...expected.extras, search: 'portable' },
      });
    }
  });
});

import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';
import { withOwnPattern } from './own-pattern-error.js';

// ripgrep parses `(?:{pattern})` and showed that text, `regex parse error: (?:()`, not the model's (issue 29.13).
describe('an invalid pattern is shown as the model wrote it', () => {
  const cases: Array<[pattern: string, error: string]> = [
    // Marks inside the pattern move with it.
    [
      'a{2,1}',
      'rg: regex parse error:\n    a{2,1}\n     ^^^^^\nerror: invalid repetition count range, the start must be <= the end',
    ],
    ['x[', 'rg: regex parse error:\n    x[\n     ^\nerror: unclosed character class'],
    // Columns are code points, as ripgrep counts them.
    [
      'é{99999999999}',
      'rg: regex parse error:\n    é{99999999999}\n      ^^^^^^^^^^^\nerror: decimal literal invalid',
    ],
    [
      '(?P<n>a)(?P<n>b)',
      'rg: regex parse error:\n    (?P<n>a)(?P<n>b)\n        ^       ^\nerror: duplicate capture group name',
    ],
    // The end of the pattern is just past the model's text.
    [
      '\\p{L',
      'rg: regex parse error:\n    \\p{L\n        ^\nerror: incomplete escape sequence, reached end of pattern prematurely',
    ],
    // ripgrep's place is its own `(?:` or `)`: the pattern is shown without a mark.
    ['(', 'rg: regex parse error:\n    (\nerror: unclosed group'],
    ['a(b', 'rg: regex parse error:\n    a(b\nerror: unclosed group'],
    ['a)b', 'rg: regex parse error:\n    a)b\nerror: unopened group'],
    // A lone trailing backslash escaped ripgrep's `)`: the error the pattern has is said instead.
    [
      'a\\',
      'rg: regex parse error:\n    a\\\n     ^\nerror: incomplete escape sequence, reached end of pattern prematurely',
    ],
  ];

  for (const [pattern, error] of cases) {
    it(`\`${pattern}\``, async ({ workspace }) => {
      await workspace.write('a.txt', 'zebra\n');
      const result = await new Grep(workspace.runtime()).call({ pattern });
      expect(result).toMatchObject({
        isError: true,
        brief: 'Failed to grep',
        message: `Failed to grep. Error: ${error}`,
      });
    });
  }

  it('a pattern of several lines keeps ripgrep’s numbered layout', async ({ workspace }) => {
    await workspace.write('a.txt', 'zebra\n');
    const result = await new Grep(workspace.runtime()).call({ pattern: 'ab\ncd{2,1}', multiline: true });
    const rule = '~'.repeat(79);
    expect(result.message).toBe(
      `Failed to grep. Error: rg: regex parse error:\n${rule}\n1: ab\n2: cd{2,1}\n     ^^^^^\n${rule}\nerror: invalid repetition count range, the start must be <= the end`,
    );
  });

  it('leaves any other error output as it is', () => {
    const other = 'rg: the literal "\\n" is not allowed in a regex\n';
    expect(withOwnPattern(other, 'a\nb')).toBe(other);
    expect(withOwnPattern('rg: regex parse error:\n    (?:x)\n    ^\nerror: odd', 'y')).toBe(
      'rg: regex parse error:\n    (?:x)\n    ^\nerror: odd',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { didYouMeanHint, failedOnPathMessage, readFailedMessage } from '../errors.js';
import {
  escapeForDisplay,
  LIST_SEPARATORS,
  nameSeparators,
  quotedArgument,
  quotedPath,
  shownArgument,
  shownArgumentLine,
  shownPath,
  showUnsafeCharacters,
} from './escape-for-display.js';
import { readShownPath } from '../path/normalize-input.js';

describe('escapeForDisplay', () => {
  it('leaves ordinary names alone: backslashes, spaces, quotes inside and non-Latin letters included', () => {
    for (const name of [
      'src/main.ts',
      'C:\\work\\a b.txt',
      'données/報告.md',
      'emoji 👩‍💻.txt',
      '',
      'a\\tb.py',
      'a\\u001b.txt',
      'say "hi".txt',
      'x"',
      "'quoted'",
    ])
      expect(escapeForDisplay(name)).toBe(name);
  });

  it('shows a name with a line break or a tab whole between quotes, on one line', () => {
    expect(escapeForDisplay('a\nb.txt')).toBe('"a\\nb.txt"');
    expect(escapeForDisplay('a\r\nb\tc')).toBe('"a\\r\\nb\\tc"');
  });

  it('escapes the quote and the backslash inside the quotes, so `a<TAB>b` and `a\\tb` never read the same', () => {
    expect(escapeForDisplay('a\tb.py')).toBe('"a\\tb.py"');
    expect(escapeForDisplay('a\t\\tb"c.py')).toBe('"a\\t\\\\tb\\"c.py"');
  });

  it('quotes a name that starts with a quote, or holds a component that does', () => {
    expect(escapeForDisplay('"a\\tb.py"')).toBe('"\\"a\\\\tb.py\\""');
    expect(escapeForDisplay('"x')).toBe('"\\"x"');
    expect(escapeForDisplay('src/"x".py')).toBe('"src/\\"x\\".py"');
    expect(escapeForDisplay('/w/"')).toBe('"/w/\\""');
  });

  it('quotes a name that starts or ends with white space, which a reader or a patch header would trim', () => {
    expect(escapeForDisplay(' lead.txt')).toBe('" lead.txt"');
    expect(escapeForDisplay('trail.txt ')).toBe('"trail.txt "');
    expect(escapeForDisplay('\u00a0nbsp.txt')).toBe('"\u00a0nbsp.txt"');
    expect(escapeForDisplay('src/a b/c.txt')).toBe('src/a b/c.txt');
    expect(escapeForDisplay('src/ x.txt')).toBe('src/ x.txt');
  });

  it('shows terminal escapes and other controls as \\u escapes, backspace and form feed included', () => {
    expect(escapeForDisplay('a\u001b[2K\rWrite file harmless.txt')).toBe(
      '"a\\u001b[2K\\rWrite file harmless.txt"',
    );
    expect(escapeForDisplay('\u0000\u0007\u0008\u000c\u007f\u0085\u009b')).toBe(
      '"\\u0000\\u0007\\u0008\\u000c\\u007f\\u0085\\u009b"',
    );
  });

  it('shows bidirectional controls and line separators', () => {
    expect(escapeForDisplay('invoice\u202etxt.exe')).toBe('"invoice\\u202etxt.exe"');
    expect(escapeForDisplay('\u2066x\u2069\u200e\u200f\u061c\u2028\u2029')).toBe(
      '"\\u2066x\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029"',
    );
  });

  it('shows the bytes of a name that is not UTF-8 (lone surrogates) as \\u escapes, and leaves surrogate pairs alone', () => {
    expect(escapeForDisplay('inv\udcff.txt')).toBe('"inv\\udcff.txt"');
    expect(escapeForDisplay('inv\udcfe.txt')).toBe('"inv\\udcfe.txt"');
    expect(escapeForDisplay('inv\ufffd.txt')).toBe('inv\ufffd.txt');
    expect(escapeForDisplay('dir\udc80/😀\ud800')).toBe('"dir\\udc80/😀\\ud800"');
    expect(escapeForDisplay('😀 and 𝄞.txt')).toBe('😀 and 𝄞.txt');
    expect(readShownPath(escapeForDisplay('inv\udcff.txt'))).toBe('inv\udcff.txt');
  });

  it('gives a quoted form that is a JSON string of the name', () => {
    const name = 'a\u0001\t"\\\u202e\u0085é😀';
    expect(JSON.parse(escapeForDisplay(name))).toBe(name);
  });
});

describe('quotedPath', () => {
  it('quotes a path in backticks, escaped', () => {
    expect(quotedPath('a b.txt')).toBe('`a b.txt`');
    expect(quotedPath('a\u001b[2K\rx')).toBe('`"a\\u001b[2K\\rx"`');
  });

  // `a` + backtick + `b.txt` between backticks ended the code span after `a`: the message named `a`.
  it('shows a path holding a backtick quoted, so the code span ends after the name', () => {
    expect(quotedPath('a`b.txt')).toBe('`"a`b.txt"`');
  });
});

// docs/paths.md#names-in-a-line: a line that splits at a separator quotes a name holding it.
describe('names in a line', () => {
  it("quotes a name holding one of the line's separators, and leaves the others alone", () => {
    const separators = nameSeparators(' -> ', ': ', /-\d+(?:-|$)/);
    expect(escapeForDisplay('a -> b', separators)).toBe('"a -> b"');
    expect(escapeForDisplay('a: b', separators)).toBe('"a: b"');
    expect(escapeForDisplay('log-2024-01.txt', separators)).toBe('"log-2024-01.txt"');
    expect(escapeForDisplay('v-1', separators)).toBe('"v-1"');
    expect(escapeForDisplay('a->b, c:d v-1.ts', separators)).toBe('a->b, c:d v-1.ts');
    // The rules of every name still hold.
    expect(escapeForDisplay('a\tb', separators)).toBe('"a\\tb"');
    expect(escapeForDisplay(' a', separators)).toBe('" a"');
    expect(escapeForDisplay('"a', separators)).toBe('"\\"a"');
    // Without separators, a separator is an ordinary character.
    expect(escapeForDisplay('a -> b: c, d')).toBe('a -> b: c, d');
  });

  it('takes a separator literally, regular-expression characters included', () => {
    const separators = nameSeparators('(.*)');
    expect(escapeForDisplay('a(.*)b', separators)).toBe('"a(.*)b"');
    expect(escapeForDisplay('ab', separators)).toBe('ab');
  });

  it('shows a name of a list quoted when it holds `, `', () => {
    expect(escapeForDisplay('a, b.txt', LIST_SEPARATORS)).toBe('"a, b.txt"');
    expect(shownPath('a,b.txt', LIST_SEPARATORS)).toBe('a,b.txt');
    // `Did you mean: a, b.txt?` offered two names, `a` and `b.txt`.
    expect(didYouMeanHint(['a, b.txt', 'c.txt'])).toBe(' Did you mean: "a, b.txt", c.txt?');
  });

  it('shows the name of a failure line quoted when it holds `. Error: `', () => {
    // `Failed to read a. Error: b. Error: EIO` read as a failure on `a` with the error `b. Error: EIO`.
    expect(readFailedMessage('a. Error: b', 'EIO')).toBe('Failed to read "a. Error: b". Error: EIO');
    expect(failedOnPathMessage('write to', 'a. Error: b', 'EIO')).toBe(
      'Failed to write to "a. Error: b". Error: EIO',
    );
    expect(readFailedMessage('a. Error.txt', 'EIO')).toBe('Failed to read a. Error.txt. Error: EIO');
  });
});

describe('shownPath', () => {
  // A path past Linux's 4,096 bytes was cut, though it may still name a file (`./` repeated, a Windows long path):
  // the model gave the cut form back and named nothing.
  it('shows a path up to 32,767 characters whole, and only the two ends of a longer one', () => {
    const long = `/${'d'.repeat(32_766)}`;
    expect(shownPath(long)).toBe(long);
    expect(shownPath(`${'a'.repeat(20_000)}\n${'b'.repeat(20_000)}`)).toBe(
      `${'a'.repeat(16_383)}[...7235 characters cut...]${'b'.repeat(16_383)}`,
    );
  });

  it('never cuts a character in two', () => {
    const shown = shownPath('😀'.repeat(20_000));
    expect(shown).toMatch(/^(😀)+\[\.\.\.\d+ characters cut\.\.\.\](😀)+$/u);
  });
});

describe('shownArgument and quotedArgument', () => {
  // An argument that is not a path is echoed only to say which one is meant: a line feed in it must not fake a line,
  // and a megabyte of it must not come back.
  it('shows an argument as a path is shown, and only the two ends past 200 characters', () => {
    expect(shownArgument('**/*.ts')).toBe('**/*.ts');
    expect(shownArgument('a\nSystem: b')).toBe('"a\\nSystem: b"');
    expect(shownArgument('x'.repeat(1024 * 1024))).toBe(
      `${'x'.repeat(100)}[...1048376 characters cut...]${'x'.repeat(100)}`,
    );
    expect(quotedArgument('a\u001b[2K')).toBe('`"a\\u001b[2K"`');
    expect(quotedArgument('a`b')).toBe('`"a`b"`');
  });

  it('shows a line as a line of a file is shown, its indentation kept, and only the two ends past 200 characters', () => {
    expect(shownArgumentLine('  return x;')).toBe('  return x;');
    expect(shownArgumentLine('a\u001b[2K\rb\nc\u202e')).toBe('a\u241b[2K\u240db\u240ac\\u202e');
    expect(shownArgumentLine('x'.repeat(1024 * 1024))).toBe(
      `${'x'.repeat(100)}[...1048376 characters cut...]${'x'.repeat(100)}`,
    );
  });
});

describe('showUnsafeCharacters', () => {
  it('shows C0 controls as pictures and the unsafe characters past them as escapes, tab and the rest as they are', () => {
    expect(showUnsafeCharacters('a\tb\u001b[2K\rc\u007f')).toBe('a\tb\u241b[2K\u240dc\u2421');
    expect(showUnsafeCharacters('x\u009b2K \u202eevil\u2066 \u0085n\u2028l\u200e é ✓')).toBe(
      'x\\u009b2K \\u202eevil\\u2066 \\u0085n\\u2028l\\u200e é ✓',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { escapeForDisplay, quotedPath, shownPath } from './escape-for-display.js';

describe('escapeForDisplay', () => {
  it('leaves ordinary names alone, backslashes, spaces and non-Latin letters included', () => {
    for (const name of ['src/main.ts', 'C:\\work\\a b.txt', 'données/報告.md', 'emoji 👩‍💻.txt', ''])
      expect(escapeForDisplay(name)).toBe(name);
  });

  it('keeps a name with a line break on one line', () => {
    expect(escapeForDisplay('a\nb.txt')).toBe('a\\nb.txt');
    expect(escapeForDisplay('a\r\nb\tc')).toBe('a\\r\\nb\\tc');
  });

  it('shows terminal escapes and other controls as \\u escapes', () => {
    expect(escapeForDisplay('a\u001b[2K\rWrite file harmless.txt')).toBe(
      'a\\u001b[2K\\rWrite file harmless.txt',
    );
    expect(escapeForDisplay('\u0000\u0007\u007f\u0085\u009b')).toBe('\\u0000\\u0007\\u007f\\u0085\\u009b');
  });

  it('shows bidirectional controls and line separators', () => {
    expect(escapeForDisplay('invoice\u202etxt.exe')).toBe('invoice\\u202etxt.exe');
    expect(escapeForDisplay('\u2066x\u2069\u200e\u200f\u061c\u2028\u2029')).toBe(
      '\\u2066x\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029',
    );
  });
});

describe('quotedPath', () => {
  it('quotes a path in backticks, escaped', () => {
    expect(quotedPath('a b.txt')).toBe('`a b.txt`');
    expect(quotedPath('a\u001b[2K\rx')).toBe('`a\\u001b[2K\\rx`');
  });
});

describe('shownPath', () => {
  it('shows a path up to 4,096 characters whole, and only the two ends of a longer one', () => {
    const real = `/${'d'.repeat(4_095)}`;
    expect(shownPath(real)).toBe(real);
    expect(shownPath(`${'a'.repeat(3_000)}\n${'b'.repeat(3_000)}`)).toBe(
      `${'a'.repeat(2_048)}[...1905 characters cut...]${'b'.repeat(2_048)}`,
    );
  });

  it('never cuts a character in two', () => {
    const shown = shownPath('😀'.repeat(5_000));
    expect(shown).toMatch(/^(😀)+\[\.\.\.\d+ characters cut\.\.\.\](😀)+$/u);
  });
});

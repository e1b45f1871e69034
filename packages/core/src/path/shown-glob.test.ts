import { describe, expect, it } from 'vitest';
import { literalGlob, readShownGlob } from './shown-glob.js';

describe('readShownGlob', () => {
  it('leaves a glob with no part in the quoted form as it is', () => {
    for (const glob of ['**/*.ts', '{a,b}/"x', '"draft".md', 'a\\tb', '"unterminated']) {
      expect(readShownGlob(glob)).toBe(glob);
    }
  });

  it('reads each part in the quoted form as its name, taken literally, and the rest as glob syntax', () => {
    expect(readShownGlob('"a\\nb.txt"')).toBe('a\nb.txt');
    expect(readShownGlob('"inv\\udcff.txt"')).toBe('inv\udcff.txt');
    expect(readShownGlob('src/"[id]\\t.tsx"')).toBe('src/\\[id\\]\t.tsx');
    expect(readShownGlob('"d\\tir"/**/*.{ts,md}')).toBe('d\tir/**/*.{ts,md}');
    expect(readShownGlob('"dir/\\"we*ird\\".md"')).toBe('dir/\\"we\\*ird\\".md');
  });
});

describe('literalGlob', () => {
  it('escapes what a glob reads as syntax, and white space at the end, which ripgrep drops', () => {
    expect(literalGlob('!#(a|b){c,d}[e]?*\\"')).toBe('\\!\\#\\(a\\|b\\)\\{c,d\\}\\[e\\]\\?\\*\\\\\\"');
    expect(literalGlob(' a b ')).toBe(' a b\\ ');
    expect(literalGlob('a\t')).toBe('a\\\t');
    expect(literalGlob('a\u00a0')).toBe('a\\\u00a0');
    expect(literalGlob('plain.txt')).toBe('plain.txt');
  });
});

import { describe, expect, it } from 'vitest';
import { indentRewritesFor, rewriteIndentation } from './match-indentation.js';
import { stripLineNumbers, stripNewLineNumbers } from './match-line-numbers.js';

describe('line-number prefixes', () => {
  it('strips ReadFile prefixes numbered in order, an empty line without its tab included', () => {
    expect(stripLineNumbers('     9\tdef f():\n    10\n    11\t    pass\n')).toBe('def f():\n\n    pass\n');
    expect(stripLineNumbers('12\ta\n13\tb')).toBe('a\nb');
  });

  it('leaves text alone unless every line has a prefix and the numbers count up by one', () => {
    expect(stripLineNumbers('     9\ta\nb')).toBeUndefined();
    expect(stripLineNumbers('     9\ta\n    11\tb')).toBeUndefined();
    expect(stripLineNumbers('x = 1')).toBeUndefined();
    expect(stripNewLineNumbers('     9\ta\n    12\tb')).toBe('a\nb');
    expect(stripNewLineNumbers('     9\ta\nb')).toBe('     9\ta\nb');
    expect(stripNewLineNumbers('')).toBe('');
  });
});

describe('tabs and spaces', () => {
  it('offers spaces-to-tabs at the model width first for a tab-indented file', () => {
    expect(indentRewritesFor('func f() {\n\treturn\n}\n', '  if x {\n    y\n  }', '')).toEqual([
      { to: 'tabs', width: 2 },
      { to: 'tabs', width: 4 },
      { to: 'tabs', width: 8 },
    ]);
  });

  it('offers tabs-to-spaces at the file width first for a space-indented file, and nothing when styles agree', () => {
    expect(indentRewritesFor('def f():\n    if x:\n        y()\n', '\tif x:', '')[0]).toEqual({
      to: 'spaces',
      width: 4,
    });
    expect(indentRewritesFor('def f():\n    pass\n', '    pass', '')).toEqual([]);
    expect(indentRewritesFor('def f():\n    pass\n', 'pass', '')).toEqual([]);
  });

  it('rewrites leading indentation only, keeping spaces that make no whole tab', () => {
    expect(rewriteIndentation('    a  b\n      c\n\td', { to: 'tabs', width: 4 })).toBe('\ta  b\n\t  c\n\td');
    expect(rewriteIndentation('\ta\t b\n\t\tc', { to: 'spaces', width: 2 })).toBe('  a\t b\n    c');
  });
});

import { describe, expect, it } from 'vitest';
import { indentRewritesFor, rewriteIndentation } from './match-indentation.js';

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

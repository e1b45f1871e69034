import { describe, expect, it } from 'vitest';
import { numberedLine, stripLineNumbers, stripNewLineNumbers } from './numbered-line.js';

describe('line-number prefixes', () => {
  it('reads back the prefixes numberedLine writes', () => {
    expect(stripLineNumbers(`${numberedLine(9, 'a')}\n${numberedLine(10, '')}\n`)).toBe('a\n\n');
  });

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

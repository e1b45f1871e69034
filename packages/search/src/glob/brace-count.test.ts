import micromatch from 'micromatch';
import { describe, expect, it } from 'vitest';
import { braceExpansionCount } from './brace-count.js';

describe('braceExpansionCount', () => {
  it.each([
    '*.ts',
    '{a,b}',
    '{src,lib}/**/*.{ts,tsx}',
    '{a,{b,c}}/{x,y,z}',
    'v{1..12}.txt',
    '{a..e}{0..4..2}',
    '\\{a,b}',
  ])('agrees with a real expansion of %s', (pattern) => {
    expect(braceExpansionCount(pattern, 10_000)).toBe(micromatch.braces(pattern, { expand: true }).length);
  });

  it('stops counting past the limit instead of expanding', () => {
    expect(braceExpansionCount('{a,b}'.repeat(40), 256)).toBe(Number.POSITIVE_INFINITY);
    expect(braceExpansionCount('{1..1000000}', 256)).toBe(Number.POSITIVE_INFINITY);
    expect(braceExpansionCount('{a,b}'.repeat(8), 256)).toBe(256);
  });
});

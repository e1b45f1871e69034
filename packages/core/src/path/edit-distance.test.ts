import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedEditDistance } from './edit-distance.js';

/** Plain full-table optimal string alignment distance, as the reference. */
function referenceDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

describe('boundedEditDistance', () => {
  it('counts insertions, deletions, substitutions and transpositions', () => {
    expect(boundedEditDistance('config', 'config', 3)).toBe(0);
    expect(boundedEditDistance('config', 'cofnig', 3)).toBe(1);
    expect(boundedEditDistance('config', 'confi', 3)).toBe(1);
    expect(boundedEditDistance('config', 'configs', 3)).toBe(1);
    expect(boundedEditDistance('config', 'conf1g', 3)).toBe(1);
    expect(boundedEditDistance('', 'ab', 3)).toBe(2);
  });

  it('returns limit + 1 for anything further away', () => {
    expect(boundedEditDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(boundedEditDistance('a', 'abcdefgh', 3)).toBe(4);
  });

  it('agrees with the full table on many pseudo-random pairs', () => {
    // Words of up to 8 letters from a three-letter alphabet, so they share much and differ a little.
    const word = fc
      .array(fc.constantFrom('a', 'b', 'c'), { maxLength: 8 })
      .map((letters) => letters.join(''));
    fc.assert(
      fc.property(word, word, fc.integer({ min: 1, max: 3 }), (a, b, limit) => {
        expect(boundedEditDistance(a, b, limit), `${a} ${b} ${limit}`).toBe(
          Math.min(referenceDistance(a, b), limit + 1),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

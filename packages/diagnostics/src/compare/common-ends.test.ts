import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commonEnds } from './common-ends.js';

/** The same search one character at a time: what the chunked one must always agree with. */
function byCharacter(before: string, after: string): { start: number; end: number } {
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start < limit && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < limit - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  return { start, end };
}

describe('the common start and end of two texts', () => {
  it('finds a one-character change in the middle of a long text', () => {
    const line = 'export const value = 1;\n';
    const before = line.repeat(3000);
    const at = line.length * 1500 + 21;
    const after = `${before.slice(0, at)}2${before.slice(at + 1)}`;
    expect(commonEnds(before, after)).toEqual({ start: at, end: before.length - at - 1 });
  });

  it('does not count the same characters twice when one text repeats inside the other', () => {
    const before = 'ab'.repeat(1500);
    const after = 'ab'.repeat(1501);
    const ends = commonEnds(before, after);
    expect(ends).toEqual({ start: before.length, end: 0 });
  });

  it('agrees with a character by character search on edits of long texts', () => {
    // Pieces long and short, so that texts run over several chunks and edits both within and across them.
    const piece = fc.constantFrom('a', 'b', '\n', 'ab'.repeat(300), 'a\nb'.repeat(400));
    const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    const edit = fc.record({ at: fc.nat(), removed: fc.nat(2100), inserted: text });
    fc.assert(
      fc.property(text, edit, (before, { at, removed, inserted }) => {
        const from = at % (before.length + 1);
        const after = before.slice(0, from) + inserted + before.slice(from + removed);
        expect(commonEnds(before, after)).toEqual(byCharacter(before, after));
      }),
      { numRuns: 300 },
    );
  });
});

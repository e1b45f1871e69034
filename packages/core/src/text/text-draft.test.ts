import { describe, expect, it } from 'vitest';
import { decodeText } from './codec.js';
import type { DecodedText } from './codec-types.js';
import { TextDraft } from './text-draft.js';

function decoded(content: string): DecodedText {
  const result = decodeText(Buffer.from(content, 'utf8'));
  if (!result.ok) throw new Error('not text');
  return result.decoded;
}

describe('TextDraft', () => {
  it('applies each change to the result of the ones before and sums them up as replacements of the original', () => {
    const draft = new TextDraft(decoded('0123456789'));
    draft.replace([{ start: 5, end: 6, text: 'five' }]);
    draft.replace([{ start: 2, end: 3, text: '' }]);
    expect(draft.text).toBe('0134five6789');
    expect(draft.replacements).toEqual([
      { start: 2, end: 3, text: '' },
      { start: 5, end: 6, text: 'five' },
    ]);
  });

  it('merges a change that overlaps or touches earlier ones into one replacement', () => {
    const draft = new TextDraft(decoded('abcdefgh'));
    draft.replace([{ start: 2, end: 4, text: 'XY' }]);
    draft.replace([{ start: 3, end: 5, text: '-' }]);
    expect(draft.text).toBe('abX-fgh');
    expect(draft.replacements).toEqual([{ start: 2, end: 5, text: 'X-' }]);
    draft.replace([{ start: 0, end: 0, text: '>' }]);
    expect(draft.text).toBe('>abX-fgh');
    expect(draft.replacements).toEqual([
      { start: 0, end: 0, text: '>' },
      { start: 2, end: 5, text: 'X-' },
    ]);
  });

  it('takes touching changes of one call as one, inside an earlier change too, the same text as one at a time', () => {
    const run = 'x'.repeat(8);
    const draft = new TextDraft(decoded(run));
    const doubling = (length: number) =>
      Array.from({ length: length / 2 }, (_, index) => ({
        start: index * 2,
        end: index * 2 + 2,
        text: 'xxxx',
      }));
    draft.replace(doubling(8));
    draft.replace([...doubling(16), { start: 16, end: 16, text: '!' }]);
    expect(draft.text).toBe(`${'x'.repeat(32)}!`);
    expect(draft.replacements).toEqual([{ start: 0, end: 8, text: `${'x'.repeat(32)}!` }]);
    const single = new TextDraft(decoded('abcd'));
    single.replace([
      { start: 0, end: 1, text: 'A' },
      { start: 1, end: 1, text: '+' },
      { start: 1, end: 2, text: 'B' },
      { start: 3, end: 4, text: 'D' },
    ]);
    expect(single.text).toBe('A+BcD');
    expect(single.replacements).toEqual([
      { start: 0, end: 2, text: 'A+B' },
      { start: 3, end: 4, text: 'D' },
    ]);
  });

  it('shows the raw text as it would be written, and maps its offsets to the text', () => {
    const draft = new TextDraft(decoded('a\r\nb\r\nc\n'));
    expect(draft.raw).toBe('a\r\nb\r\nc\n');
    draft.replace([{ start: 2, end: 3, text: 'B\nB2' }]);
    expect(draft.text).toBe('a\nB\nB2\nc\n');
    expect(draft.raw).toBe('a\r\nB\r\nB2\r\nc\n');
    expect(draft.textOffsets([0, 1, 2, 3, 6, 10])).toEqual([0, 1, 1, 2, 4, 7]);
  });

  it('refuses changes that are unsorted, overlapping or outside the text', () => {
    const draft = new TextDraft(decoded('abc'));
    expect(() =>
      draft.replace([
        { start: 1, end: 2, text: '' },
        { start: 0, end: 1, text: '' },
      ]),
    ).toThrow(RangeError);
    expect(() => draft.replace([{ start: 2, end: 9, text: '' }])).toThrow(RangeError);
    expect(draft.text).toBe('abc');
  });
});

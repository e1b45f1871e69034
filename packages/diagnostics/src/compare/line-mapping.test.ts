import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineMapping } from './line-mapping.js';

describe('the line mapping of a change', () => {
  it('keeps lines above, shifts lines below, and marks the changed ones', () => {
    const mapping = lineMapping('a\nb\nc\nd\n', 'a\nB\nB2\nc\nd\n');
    expect([1, 2, 3, 4, 5].map((line) => mapping.newLineOf(line))).toEqual([1, undefined, 4, 5, 6]);
    expect([1, 2, 3, 4].map((line) => mapping.isChanged(line))).toEqual([false, true, true, false]);
  });

  it('maps every unchanged line to a line with the same text', () => {
    const line = fc.constantFrom('a', 'b', 'x = 1', '');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(line, { maxLength: 12 }), (old, fresh) => {
        const before = old.join('\n');
        const after = fresh.join('\n');
        const mapping = lineMapping(before, after);
        old.forEach((text, index) => {
          const mapped = mapping.newLineOf(index + 1);
          if (mapped !== undefined) {
            expect(fresh[mapped - 1]).toBe(text);
            expect(mapping.isChanged(mapped)).toBe(false);
          }
        });
      }),
      { numRuns: 500 },
    );
  });
});

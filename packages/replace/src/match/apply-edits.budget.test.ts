import { decodeText } from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { applyEdits } from './apply-edits.js';
import { MAX_EDIT_GROWTH_CHARS, MAX_REPLACEMENTS } from '../limits.js';

function decoded(content: string) {
  const result = decodeText(Buffer.from(content, 'utf8'));
  if (!result.ok) throw new Error('not text');
  return result.decoded;
}

describe('the output budget of an edit, checked before the result is built', () => {
  it('refuses a replace_all with more matches than the budget, naming the edit', () => {
    const text = 'x,'.repeat(MAX_REPLACEMENTS + 1);
    const result = applyEdits(decoded(text), [{ old: ',', new: ';', replace_all: true }]);
    expect(result).toEqual({ ok: false, index: 1, failure: { kind: 'too-many', limit: MAX_REPLACEMENTS } });
  });

  it('counts the replacements of all edits together', () => {
    const half = MAX_REPLACEMENTS / 2;
    const text = 'a,'.repeat(half) + 'b;'.repeat(half + 1);
    const result = applyEdits(decoded(text), [
      { old: ',', new: '.', replace_all: true },
      { old: ';', new: '.', replace_all: true },
    ]);
    expect(result).toEqual({ ok: false, index: 2, failure: { kind: 'too-many', limit: MAX_REPLACEMENTS } });
  });

  it('takes exactly the budget', () => {
    const text = 'x,'.repeat(MAX_REPLACEMENTS);
    const result = applyEdits(decoded(text), [{ old: ',', new: ';', replace_all: true }]);
    expect(result.ok && result.edits).toEqual([{ replacements: MAX_REPLACEMENTS, matchedBy: 'exact' }]);
  });

  it('refuses edits that would grow the text past the budget: 40 edits that each double it stop early', () => {
    const edits = Array.from({ length: 40 }, () => ({ old: 'x', new: 'x'.repeat(2), replace_all: true }));
    // Few matches, long text: the growth budget, not the count, is what stops the doubling.
    const result = applyEdits(decoded('x'.repeat(16) + '\n'), [
      { old: 'x', new: 'x'.repeat(1 << 20), replace_all: true },
      ...edits.map(() => ({ old: 'x'.repeat(1 << 20), new: 'x'.repeat(1 << 21), replace_all: true })),
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure).toEqual({ kind: 'too-large', limit: MAX_EDIT_GROWTH_CHARS });
      expect(result.index).toBeLessThan(10);
    }
  });

  it('takes an edit that grows the text by exactly the budget', () => {
    const result = applyEdits(decoded('<>'), [
      { old: '<', new: '<' + 'y'.repeat(MAX_EDIT_GROWTH_CHARS), replace_all: false },
    ]);
    expect(result.ok && result.text.length).toBe(2 + MAX_EDIT_GROWTH_CHARS);
  });
});

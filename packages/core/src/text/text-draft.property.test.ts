import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeText } from './codec.js';
import { TextDraft, type TextDraftOptions } from './text-draft.js';
import type { TextReplacement } from './text-replacement.js';
import { appliedReplacements } from './__fixtures__/applied-replacements.js';

/** Words that repeat, so that searched strings occur several times, overlap and straddle the changes. */
const WORDS = ['ab', 'abab', 'cd', ' ', '\n', 'xyzzy', 'ababab', 'a', 'b', '\n\n', 'cdcdcd'];
const phrase = (maxLength: number) =>
  fc.array(fc.constantFrom(...WORDS), { maxLength }).map((words) => words.join(''));

/** One step: ranges of the current text (as fractions, sorted and made apart below) and their new texts. */
const step = fc.array(
  fc.record({
    from: fc.double({ min: 0, max: 1, noNaN: true }),
    size: fc.oneof(fc.constant(0), fc.nat(12)),
    text: fc.oneof(fc.constant(''), phrase(4)),
  }),
  { maxLength: 8 },
);

/** Sorted, non-overlapping replacements of a text of `length` characters, from a step's fractions. */
function changesOf(
  length: number,
  raw: readonly { from: number; size: number; text: string }[],
): TextReplacement[] {
  const changes: TextReplacement[] = [];
  let at = 0;
  for (const { from, size, text } of [...raw].sort((left, right) => left.from - right.from)) {
    const start = Math.max(at, Math.floor(from * length));
    if (start > length) break;
    const end = Math.min(length, start + size);
    changes.push({ start, end, text });
    at = end;
  }
  return changes;
}

function scanned(text: string, needle: string, overlapping: boolean): number[] {
  const starts: number[] = [];
  for (
    let at = text.indexOf(needle);
    at !== -1;
    at = text.indexOf(needle, at + (overlapping ? 1 : needle.length))
  )
    starts.push(at);
  return starts;
}

/** The draft against a plain string changed the same way, after every step, by every way of reading it. */
function checkDraft(options: TextDraftOptions) {
  fc.assert(
    fc.property(
      phrase(60),
      fc.array(step, { minLength: 1, maxLength: 8 }),
      fc.nat(),
      (original, steps, pick) => {
        const decoded = decodeText(Buffer.from(original, 'utf8'));
        if (!decoded.ok) throw new Error('not text');
        const draft = new TextDraft(decoded.decoded, options);
        let expected = original;
        for (const raw of steps) {
          const changes = changesOf(expected.length, raw);
          draft.replace(changes);
          expected = appliedReplacements(expected, changes);
          // Read in pieces first, then whole: the pieces must not depend on the whole text having been built.
          expect(draft.length).toBe(expected.length);
          const offset = expected.length === 0 ? 0 : pick % (expected.length + 1);
          expect(draft.slice(offset, offset + 9)).toBe(expected.slice(offset, offset + 9));
          expect(draft.charCodeAt(offset)).toEqual(expected.charCodeAt(offset));
          expect(draft.lineNumberAt(offset)).toBe(expected.slice(0, offset).split('\n').length);
          for (const needle of [
            expected.slice(offset, offset + 8),
            expected.slice(offset, offset + 13),
            'abababab',
          ]) {
            if (needle.length === 0) continue;
            for (const overlapping of [true, false]) {
              expect([...draft.occurrences(needle, overlapping)]).toEqual(
                scanned(expected, needle, overlapping),
              );
            }
          }
          const replacements = draft.replacements;
          expect(appliedReplacements(original, replacements)).toBe(expected);
          // Sorted, and apart: touching changes are one replacement.
          replacements.slice(1).forEach((replacement, index) => {
            expect(replacement.start).toBeGreaterThan(replacements[index]!.end);
          });
        }
        expect(draft.text).toBe(expected);
      },
    ),
    { numRuns: 300 },
  );
}

describe('TextDraft, read without its whole text', () => {
  it('reads and finds what a plain string changed the same way holds, through its index', () => {
    checkDraft({ search: 'indexed' });
  });

  it('reads and finds the same by scanning', () => {
    checkDraft({ search: 'scanned' });
  });
});

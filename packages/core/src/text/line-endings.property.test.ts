import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectLineEnding, normalizeLineEndings } from './line-endings.js';
import { restoreLineEndings } from './restore-line-endings.js';

const ENDINGS = ['\n', '\r\n', '\r'] as const;

/** A mixed-ending text of 1 to 40 distinct lowercase lines, the last one without a newline three times in ten. */
const mixedText = fc
  .tuple(
    fc.array(fc.record({ letters: fc.integer({ min: 0, max: 7 }), ending: fc.constantFrom(...ENDINGS) }), {
      minLength: 1,
      maxLength: 40,
    }),
    fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 7, arbitrary: fc.constant(false) }),
  )
  .map(([lines, unterminated]) =>
    lines
      .map(
        ({ letters, ending }, index) =>
          `line ${index} ${'abcdefgh'.slice(0, letters)}${unterminated && index === lines.length - 1 ? '' : ending}`,
      )
      .join(''),
  );

/** Raw offset of a position in the normalised text (a CRLF counts as one character). */
function rawIndex(raw: string, normalizedIndex: number): number {
  let normalized = 0;
  let at = 0;
  while (normalized < normalizedIndex) {
    at += raw.startsWith('\r\n', at) ? 2 : 1;
    normalized++;
  }
  return at;
}

/**
 * Uppercase replacement text of `minWords` to `minWords + 3` words, possibly with new lines inside, and maybe a line
 * break at its start or end (an edit that adds or removes a line break next to the kept text). `minWords` 0 allows a
 * pure deletion.
 */
function replacement(minWords: number): fc.Arbitrary<string> {
  const words = ['NEW', 'X', 'LI\nNE', 'Q\nR', 'A\n\nB', 'C\r\nD'];
  return fc
    .tuple(
      fc.constantFrom('', '\n'),
      fc.array(fc.constantFrom(...words), { minLength: minWords, maxLength: minWords + 3 }),
      fc.constantFrom('', '\n'),
    )
    .map(([lead, chosen, trail]) => lead + chosen.join('') + trail);
}

/** Checked cases per edit count: at least as many as the hand-rolled generator's 600 rounds ever checked. */
const RUNS = 600;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Whether prefix/suffix matching can only place this edit where it really is (no equal text next to it). */
function unambiguous(normalized: string, edits: readonly Edit[]): boolean {
  let updated = normalized;
  for (const edit of [...edits].reverse()) {
    updated = updated.slice(0, edit.start) + edit.text + updated.slice(edit.end);
  }
  const first = edits[0] as Edit;
  const last = edits[edits.length - 1] as Edit;
  const startsDiffer = updated.charAt(first.start) !== normalized.charAt(first.start);
  const endOffset = normalized.length - last.end;
  const endsDiffer =
    updated.charAt(updated.length - endOffset - 1) !== normalized.charAt(normalized.length - endOffset - 1);
  return startsDiffer && endsDiffer && updated !== normalized;
}

/**
 * Whether an edit whose text starts or ends with a line break could just as well be read as one that keeps whole
 * lines: when the replaced region starts with the same line tail the kept text after it starts with (or ends with the
 * same line head the kept text before it ends with), the same result inserts the text and deletes whole lines
 * elsewhere, which keeps other bytes. Line matching may take either reading, and both are right.
 */
function shiftsOverLines(normalized: string, edit: Edit): boolean {
  if (edit.text.endsWith('\n')) {
    const after = normalized.slice(edit.end);
    const tail = after.slice(0, after.indexOf('\n') + 1);
    if (tail !== '' && normalized.startsWith(tail, edit.start)) return true;
  }
  if (edit.text.startsWith('\n')) {
    const before = normalized.slice(0, edit.start);
    const head = before.slice(before.lastIndexOf('\n'));
    if (head.startsWith('\n') && normalized.slice(0, edit.end).endsWith(head)) return true;
  }
  return false;
}

// One edit is placed exactly by the common prefix and suffix; several edits are told apart by the whole untouched
// lines between them. Edits whose place is ambiguous (equal text beside them) are skipped: any placement is right.
describe('restoreLineEndings property: bytes outside the replaced regions are unchanged', () => {
  for (const editCount of [1, 2]) {
    it(`holds for ${editCount} random edit(s) on mixed-ending texts`, () => {
      let checked = 0;
      const cases = fc.tuple(
        mixedText,
        fc.array(fc.nat(), { minLength: editCount * 2, maxLength: editCount * 2 }),
        fc.array(replacement(editCount - 1), { minLength: editCount, maxLength: editCount }),
      );
      fc.assert(
        fc.property(cases, ([raw, cutSeeds, texts]) => {
          const normalized = normalizeLineEndings(raw);
          const cuts = cutSeeds.map((seed) => seed % (normalized.length + 1)).sort((a, b) => a - b);
          const edits: Edit[] = [];
          for (let index = 0; index < editCount; index++) {
            edits.push({
              start: cuts[2 * index] as number,
              end: cuts[2 * index + 1] as number,
              text: texts[index] as string,
            });
          }
          // Edits are told apart by the untouched lines between them: two edits need a whole line in between.
          if (editCount === 2) {
            const between = normalized.slice((edits[0] as Edit).end, (edits[1] as Edit).start);
            fc.pre(between.indexOf('\n') !== between.lastIndexOf('\n'));
          }
          fc.pre(unambiguous(normalized, edits));
          fc.pre(!edits.some((edit) => shiftsOverLines(normalized, edit)));

          let updated = '';
          const expectedKept: string[] = [];
          let from = 0;
          for (const edit of edits) {
            updated += normalized.slice(from, edit.start) + edit.text;
            expectedKept.push(raw.slice(rawIndex(raw, from), rawIndex(raw, edit.start)));
            from = edit.end;
          }
          updated += normalized.slice(from);
          expectedKept.push(raw.slice(rawIndex(raw, from)));

          // Deleting everything between a lone '\r' and a '\n' cannot keep both bytes: they would fuse into a CRLF.
          const fuses = edits.some(
            (edit, index) =>
              edit.text === '' &&
              (expectedKept[index] as string).endsWith('\r') &&
              (expectedKept[index + 1] as string).startsWith('\n'),
          );
          fc.pre(!fuses);

          const restored = restoreLineEndings(raw, updated, detectLineEnding(raw));
          expect(normalizeLineEndings(restored), JSON.stringify({ raw, updated, restored })).toBe(
            normalizeLineEndings(updated),
          );
          // Every untouched stretch of raw bytes appears, in order, in the result.
          let cursor = 0;
          for (const kept of expectedKept) {
            const found = restored.indexOf(kept, cursor);
            expect(found, JSON.stringify({ raw, updated, restored, kept })).toBeGreaterThanOrEqual(cursor);
            cursor = found + kept.length;
          }
          expect(restored.startsWith(expectedKept[0] as string)).toBe(true);
          expect(restored.endsWith(expectedKept[expectedKept.length - 1] as string)).toBe(true);
          checked++;
        }),
        { numRuns: RUNS },
      );
      expect(checked).toBeGreaterThanOrEqual(RUNS);
    });
  }
});

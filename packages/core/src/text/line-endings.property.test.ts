import { describe, expect, it } from 'vitest';
import { detectLineEnding, normalizeLineEndings } from './line-endings.js';
import { restoreLineEndings } from './restore-line-endings.js';

/** Small deterministic PRNG (mulberry32) so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENDINGS = ['\n', '\r\n', '\r'] as const;

/** A mixed-ending text of distinct lowercase lines, sometimes without a final newline. */
function mixedText(next: () => number): string {
  const count = 1 + Math.floor(next() * 40);
  let raw = '';
  for (let index = 0; index < count; index++) {
    const ending = index === count - 1 && next() < 0.3 ? '' : ENDINGS[Math.floor(next() * 3)];
    raw += `line ${index} ${'abcdefgh'.slice(0, Math.floor(next() * 8))}${ending}`;
  }
  return raw;
}

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
 * Uppercase replacement text, possibly with new lines inside but never at its edges, so it cannot be mistaken for
 * the lowercase original around it. `minWords` 0 allows a pure deletion.
 */
function replacement(next: () => number, minWords: number): string {
  const words = ['NEW', 'X', 'LI\nNE', 'Q\nR', 'A\n\nB', 'C\r\nD'];
  let text = '';
  const count = minWords + Math.floor(next() * 4);
  for (let index = 0; index < count; index++) text += words[Math.floor(next() * words.length)];
  return text;
}

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

// One edit is placed exactly by the common prefix and suffix; several edits are told apart by the whole untouched
// lines between them. Edits whose place is ambiguous (equal text beside them) are skipped: any placement is right.
describe('restoreLineEndings property: bytes outside the replaced regions are unchanged', () => {
  for (const editCount of [1, 2]) {
    it(`holds for ${editCount} random edit(s) on mixed-ending texts`, () => {
      const next = random(20261121 + editCount);
      let checked = 0;
      for (let round = 0; round < 600; round++) {
        const raw = mixedText(next);
        const normalized = normalizeLineEndings(raw);
        const cuts = Array.from({ length: editCount * 2 }, () =>
          Math.floor(next() * (normalized.length + 1)),
        ).sort((a, b) => a - b);
        const edits: Edit[] = [];
        for (let index = 0; index < editCount; index++) {
          edits.push({
            start: cuts[2 * index] as number,
            end: cuts[2 * index + 1] as number,
            text: replacement(next, editCount - 1),
          });
        }
        // Edits are told apart by the untouched lines between them: two edits need a whole line in between.
        if (editCount === 2) {
          const between = normalized.slice((edits[0] as Edit).end, (edits[1] as Edit).start);
          if (between.indexOf('\n') === between.lastIndexOf('\n')) continue;
        }
        if (!unambiguous(normalized, edits)) continue;

        let updated = '';
        let expectedKept: string[] = [];
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
        if (fuses) continue;

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
        expectedKept = [];
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
    });
  }
});

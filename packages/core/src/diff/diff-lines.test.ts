import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiffLines, sharedEdges } from './diff-lines.js';

/** The lines as shown: the text without its final '\n', split at every '\n' (no lines for an empty text). */
function shownLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

describe('DiffLines', () => {
  it('shows, measures and compares the lines a split would give, without splitting', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'ab', '', '\n', 'é'), { maxLength: 12 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, fc.nat(), fc.nat(), (oldText, newText, from, size) => {
        const lines = new DiffLines(oldText);
        const shown = shownLines(oldText);
        expect(lines.count).toBe(shown.length);
        shown.forEach((line, index) => expect(lines.shownLength(index)).toBe(line.length));
        const start = shown.length === 0 ? 0 : from % shown.length;
        const end = Math.min(shown.length, start + (size % 4));
        expect(lines.shown(start, end)).toBe(shown.slice(start, end).join('\n'));
        // Lines compare equal exactly when they show the same and both or neither end the text without '\n'.
        const other = new DiffLines(newText);
        const otherShown = shownLines(newText);
        const unterminated = (text: string, index: number, count: number) =>
          index === count - 1 && !text.endsWith('\n');
        shown.forEach((line, index) =>
          otherShown.forEach((otherLine, otherIndex) =>
            expect(lines.same(index, other, otherIndex)).toBe(
              line === otherLine &&
                unterminated(oldText, index, shown.length) ===
                  unterminated(newText, otherIndex, otherShown.length),
            ),
          ),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('finds the shared first and last lines as comparing line by line does', () => {
    const text = fc
      .array(fc.constantFrom('a\n', 'b\n', 'ab', '\n', 'a'), { maxLength: 10 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (oldText, newText) => {
        const oldLines = new DiffLines(oldText);
        const newLines = new DiffLines(newText);
        const most = Math.min(oldLines.count, newLines.count);
        let prefix = 0;
        while (prefix < most && oldLines.same(prefix, newLines, prefix)) prefix++;
        let suffix = 0;
        while (
          suffix < most - prefix &&
          oldLines.same(oldLines.count - 1 - suffix, newLines, newLines.count - 1 - suffix)
        )
          suffix++;
        const newMiddle = {
          from: newLines.offset(prefix),
          to: Math.max(newLines.offset(prefix), newLines.offset(newLines.count - suffix)),
        };
        expect(sharedEdges(oldLines, newLines)).toEqual({ prefix, suffix, newMiddle });
      }),
      { numRuns: 500 },
    );
  });
});

import {
  decodeText,
  encodeChange,
  normalizeLineEndings as normalizeLineBreaks,
} from '@kimi-tools/core/toolkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits } from './apply-edits.js';

/** Applies one edit to a file holding `raw` (CRLF its dominant ending); `content` is what the file then holds. */
function applyToFile(raw: string, edit: { old: string; new: string; replace_all: boolean }) {
  const decoded = decodeText(Buffer.from(raw, 'utf8'));
  if (!decoded.ok) throw new Error('not text');
  const file = { ...decoded.decoded, format: { ...decoded.decoded.format, lineEnding: '\r\n' as const } };
  const result = applyEdits(file, [edit]);
  if (!result.ok) return result;
  const bytes = encodeChange(file, Buffer.from(raw, 'utf8'), result.replacements);
  return { ...result, content: Buffer.from(bytes).toString('utf8') };
}

const WORDS = ['alpha', 'beta', 'gamma', '  ', '\t', '“q”', 'don’t', '$&', 'é', '中'];
const BREAKS = ['\n', '\r\n', '\r'];

/** A file of 5 to 24 lines, each up to four words, then its label `<L{n}>`, then any line break. */
const mixedEndingFile = fc
  .array(
    fc.record({
      words: fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }),
      lineBreak: fc.constantFrom(...BREAKS),
    }),
    { minLength: 5, maxLength: 24 },
  )
  .map((lines) =>
    lines
      .map(
        ({ words, lineBreak }, line) => `${words.map((word) => `${word} `).join('')}<L${line}>${lineBreak}`,
      )
      .join(''),
  );

/** What replaces the anchor: nothing one time in five, else a numbered line and maybe a second one. */
const replacementText = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 4, arbitrary: fc.tuple(fc.nat(), fc.boolean()).map(([n, x]) => `NEW${n}\n${x ? 'x' : ''}`) },
);

describe('every byte outside the replaced region is unchanged', () => {
  it('holds for random exact and line-ending edits on mixed-ending files', () => {
    fc.assert(
      fc.property(mixedEndingFile, fc.nat({ max: 4 }), replacementText, (raw, line, replacement) => {
        // A unique anchor: the line label `<L{n}>` with its following text up to the next label.
        const start = raw.indexOf(`<L${line}>`);
        const following = raw.indexOf(`<L${line + 1}>`);
        const stop = following === -1 ? raw.length : following;
        const old = normalizeLineBreaks(raw.slice(start, stop));
        const result = applyToFile(raw, { old, new: replacement, replace_all: false });
        if (!result.ok) throw new Error(JSON.stringify(result));
        const rawEnd = stop;
        expect(result.content.startsWith(raw.slice(0, start))).toBe(true);
        expect(result.content.endsWith(raw.slice(rawEnd))).toBe(true);
        if (replacement !== '') {
          const middle = result.content.slice(start, result.content.length - (raw.length - rawEnd));
          expect(normalizeLineBreaks(middle)).toBe(replacement);
        }
      }),
      { numRuns: 300 },
    );
  });
});

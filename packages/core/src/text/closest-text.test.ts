import { describe, expect, it } from 'vitest';
import { CLOSEST_TEXT_EXCERPT_LINE_CHARS, findClosestText } from './closest-text.js';

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('findClosestText', () => {
  it('cuts a long excerpt line at 160 characters with …, never inside an emoji', () => {
    // Whatever the emoji's offset, the cut keeps it whole or leaves it out: a lone surrogate is no text, and some model
    // APIs refuse a message holding one.
    for (
      let prefix = CLOSEST_TEXT_EXCERPT_LINE_CHARS - 6;
      prefix <= CLOSEST_TEXT_EXCERPT_LINE_CHARS;
      prefix++
    ) {
      const line = `${'x'.repeat(prefix)}😀😀😀 yyyy`;
      const closest = findClosestText(`${line}\n`, `${line}\n`, `${'x'.repeat(prefix)}😀😀😀 yyyz`);
      expect(closest?.line).toBe(1);
      expect(closest?.excerpt).not.toMatch(loneSurrogate);
      expect(closest?.excerpt.endsWith('…')).toBe(true);
      expect(line.startsWith(closest!.excerpt.slice(0, -1))).toBe(true);
    }
  });

  it('keeps a line of at most 160 characters whole', () => {
    const line = 'z'.repeat(CLOSEST_TEXT_EXCERPT_LINE_CHARS);
    expect(findClosestText(`${line}\n`, `${line}\n`, `${line.slice(0, -1)}q`)).toEqual({
      line: 1,
      excerpt: line,
    });
  });

  // ESC and BEL of the file reached the model raw: a terminal printing the hint cleared its screen.
  it("quotes the file's control characters as ReadFile shows them: pictures, tab as it is", () => {
    const text = 'a\n\tclear "\u001b[2J" bell "\u0007" del \u007f\nb\n';
    expect(findClosestText(text, text, '\tclear "[2J" bell "" del ')).toEqual({
      line: 2,
      excerpt: '\tclear "\u241b[2J" bell "\u2407" del \u2421',
    });
  });
});

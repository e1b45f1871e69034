import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeForDisplay } from '../text/escape-for-display.js';
import { readShownPath } from './normalize-input.js';

// docs/paths.md#how-paths-are-shown: every shown form reads back as its name and no other.

/** Names built mostly from the characters that matter here: controls, quotes, backslashes, escape letters, `/`. */
const trickyName = fc
  .array(
    fc.oneof(
      fc.constantFrom('"', '\\', '/', 'n', 't', 'r', 'u', 'b', 'f', 'x', '0', '1', 'e', '.', ' ', "'"),
      fc.integer({ min: 1, max: 0x9f }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('\u202e', '\u2028', '\u061c', 'é', '😀', '\udcff', '\ud83d', '\ufffd'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('the shown form of a name', () => {
  it('reads back as that name', () => {
    fc.assert(
      fc.property(fc.oneof(trickyName, fc.string({ unit: 'grapheme' })), (name) => {
        expect(readShownPath(escapeForDisplay(name))).toBe(name);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back joined to its directory, as a listing shows a name', () => {
    fc.assert(
      fc.property(trickyName, trickyName, (directory, name) => {
        fc.pre(!name.includes('/') && escapeForDisplay(directory) === directory);
        expect(readShownPath(`${directory}/${escapeForDisplay(name)}`)).toBe(`${directory}/${name}`);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back a path shown quoted or not, with a shown name joined to it', () => {
    fc.assert(
      fc.property(trickyName, trickyName, (directory, name) => {
        fc.pre(!name.includes('/'));
        expect(readShownPath(`${escapeForDisplay(directory)}/${escapeForDisplay(name)}`)).toBe(
          `${directory}/${name}`,
        );
      }),
      { numRuns: 2_000 },
    );
  });
});

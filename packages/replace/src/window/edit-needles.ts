import {
  encodeText,
  normalizeLineEndings,
  stripLineNumbers,
  UnencodableTextError,
  type LoggedEdit,
} from '@kimi-tools/core/toolkit';
import { loggedTextsToFind } from '../match/replays.js';
import type { EditSpec } from '../match/types.js';
import type { WindowFormat } from './file-format.js';
import type { WindowReach } from './window-ranges.js';

/** Quote characters the `quotes` level reads as each other. */
const QUOTES = /['"\u2018\u2019\u201C\u201D]/;
const SINGLE_QUOTES = ["'", '\u2018', '\u2019'];
const DOUBLE_QUOTES = ['"', '\u201C', '\u201D'];

/** Bytes a file is scanned for, and how far the window of a hit reaches. */
export interface Needle {
  bytes: Uint8Array;
  reach: WindowReach;
}

/**
 * What any match of `old` at any level holds as it stands in the file: the longest piece of one of its lines without
 * a quote (a quote may stand for another) and without the whitespace around it (the whitespace levels trim it and
 * shift the indentation), taken from the lines without ReadFile's prefixes when `old` carries them (their content is
 * in every match, numbered or not). An `old` with no such piece (only quotes, spaces, tabs and line breaks) matches
 * with one of its characters as it is: a quote of its kind, the first space or tab, or a line break (`\n` or `\r`).
 */
function textsEveryMatchHolds(old: string): string[] {
  const lines = (stripLineNumbers(old) ?? old).split('\n');
  let longest = '';
  for (const line of lines)
    for (const piece of line.split(QUOTES)) if (piece.trim().length > longest.length) longest = piece.trim();
  if (longest !== '') return [longest];
  const quote = QUOTES.exec(old)?.[0];
  if (quote !== undefined) return SINGLE_QUOTES.includes(quote) ? SINGLE_QUOTES : DOUBLE_QUOTES;
  const blank = /[ \t]/.exec(old)?.[0];
  return blank === undefined ? ['\n', '\r'] : [blank];
}

/**
 * The needles of a file read in windows for `edits`: for each edit, what any of its matches holds, and the longest line
 * of each text of the session's log a replay of them may look for, as bytes of the file's encoding (a text it cannot
 * store cannot be in the file). Every match in the file as it is lies within the window of its hit, which takes in the
 * lines of its text each side (and four bytes a character of it, for long lines), then `contextLines` more for the
 * diff and the snippet.
 */
export function needlesOf(
  edits: readonly EditSpec[],
  log: readonly LoggedEdit[],
  format: WindowFormat,
  tuning: { windowReachBytes: number; windowContextLines: number },
): Needle[] {
  const logged = loggedTextsToFind(log, edits);
  const sought = [
    ...edits.filter((edit) => edit.old !== '').map((edit) => normalizeLineEndings(edit.old)),
    ...logged,
  ];
  return sought.flatMap((text, index) => {
    // One line more than a match may take: a whole line deleted takes its line break, or the one before it.
    const reach = {
      lines: text.split('\n').length + 1 + tuning.windowContextLines,
      bytes: tuning.windowReachBytes + 4 * text.length,
    };
    const longestLine = text
      .split('\n')
      .reduce((best, line) => (line.length > best.length ? line : best), '');
    const texts = index < sought.length - logged.length ? textsEveryMatchHolds(text) : [longestLine];
    return texts.flatMap((piece) => {
      try {
        return piece === '' ? [] : [{ bytes: encodeText(piece, { ...format.format, bom: false }), reach }];
      } catch (error) {
        if (error instanceof UnencodableTextError) return [];
        throw error;
      }
    });
  });
}

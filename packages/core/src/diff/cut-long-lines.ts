import type { DiffDisplayBlock } from '../result/tool-result.js';
import { cutMarker, widenToCharacters } from '../text/cut-middle.js';

/** A line of a diff block longer than this many characters (UTF-16 code units) is cut (docs/diff-blocks.md). */
export const DIFF_LINE_MAX_CHARS = 1_000;
/** Characters kept on each side of the change inside a cut changed line. */
const KEPT_AROUND_CHANGE = 200;

/** Where the two texts stop agreeing from the start, and how far they agree from the end (not overlapping it). */
function sharedEnds(a: string, b: string): { prefix: number; suffix: number } {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)
  ) {
    suffix++;
  }
  return { prefix, suffix };
}

/** The kept pieces of `text[lineFrom, lineTo)` with a marker for each cut; `keep` is a list of [from, to) windows. */
function cutLine(text: string, lineFrom: number, lineTo: number, keep: [number, number][]): string {
  let shown = '';
  let at = lineFrom;
  for (const [rawFrom, rawTo] of keep) {
    const [from, to] = widenToCharacters(text, Math.max(rawFrom, at), rawTo);
    if (from > at) shown += cutMarker(from - at);
    shown += text.slice(from, to);
    at = to;
  }
  if (at < lineTo) shown += cutMarker(lineTo - at);
  return shown;
}

/**
 * One side of a block with its long lines cut: a line that holds part of the change `[changeFrom, changeTo)` keeps
 * `KEPT_AROUND_CHANGE` characters around it (and only the two ends of a change too long to show), any other long line
 * keeps its first `DIFF_LINE_MAX_CHARS` characters. Short lines are left as they are.
 */
function cutSide(text: string, changeFrom: number, changeTo: number): string {
  const lines: string[] = [];
  let lineFrom = 0;
  while (lineFrom <= text.length) {
    const newline = text.indexOf('\n', lineFrom);
    const lineTo = newline === -1 ? text.length : newline;
    if (lineTo - lineFrom <= DIFF_LINE_MAX_CHARS) {
      lines.push(text.slice(lineFrom, lineTo));
    } else if (lineFrom <= changeTo && changeFrom <= lineTo) {
      const from = Math.max(lineFrom, changeFrom - KEPT_AROUND_CHANGE);
      const to = Math.min(lineTo, changeTo + KEPT_AROUND_CHANGE);
      const half = DIFF_LINE_MAX_CHARS / 2;
      const windows: [number, number][] =
        to - from <= DIFF_LINE_MAX_CHARS
          ? [[from, to]]
          : [
              [from, from + half],
              [to - half, to],
            ];
      lines.push(cutLine(text, lineFrom, lineTo, windows));
    } else {
      lines.push(cutLine(text, lineFrom, lineTo, [[lineFrom, lineFrom + DIFF_LINE_MAX_CHARS]]));
    }
    if (newline === -1) break;
    lineFrom = newline + 1;
  }
  return lines.join('\n');
}

/** A (non-summary) block with every line over `DIFF_LINE_MAX_CHARS` cut around the change, or as it is. */
export function cutLongLines(block: DiffDisplayBlock): DiffDisplayBlock {
  const { oldText, newText } = block;
  if (oldText.length <= DIFF_LINE_MAX_CHARS && newText.length <= DIFF_LINE_MAX_CHARS) return block;
  const { prefix, suffix } = sharedEnds(oldText, newText);
  return {
    ...block,
    oldText: cutSide(oldText, prefix, oldText.length - suffix),
    newText: cutSide(newText, prefix, newText.length - suffix),
  };
}

import type { LineEnding } from './codec-types.js';
import { GAP_DIFF_BUDGET_CHARS, alignGapByCharacters, type GapDiffBudget } from './line-endings-gap.js';
import { matchLines } from './line-endings-match.js';

// The changed middle of a text whose line endings are being restored: which break comes from where.

/** A piece of raw text up to and including one line break ('' for the piece after the last break). */
interface RawSegment {
  content: string;
  ending: string;
}

/** Splits at every line break; n breaks give n + 1 segments, the last without an ending. */
function splitRawSegments(raw: string): RawSegment[] {
  const segments: RawSegment[] = [];
  let start = 0;
  const breaks = /\r\n|\r|\n/g;
  for (let match = breaks.exec(raw); match; match = breaks.exec(raw)) {
    segments.push({ content: raw.slice(start, match.index), ending: match[0] });
    start = match.index + match[0].length;
  }
  segments.push({ content: raw.slice(start), ending: '' });
  return segments;
}

/** Splits normalised text after every '\n' (kept); n newlines give n + 1 segments, the last without one. */
function splitNormalizedSegments(text: string): string[] {
  const segments: string[] = [];
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    segments.push(text.slice(start, at + 1));
    start = at + 1;
  }
  segments.push(text.slice(start));
  return segments;
}

/**
 * For each updated segment, the original segment whose ending it keeps (-1: a new break). Identical lines are
 * matched first. Between two matches, equally many lines pair up in order (in-line edits keep their line's ending);
 * otherwise a character diff of the gap lines the breaks up, and a gap too big for that pairs from the end, because
 * the break after an edited block lies outside the edit while extra breaks inside it are new.
 */
function endingSources(original: readonly RawSegment[], updated: readonly string[]): Int32Array {
  const keys = original.map((segment) => (segment.ending === '' ? segment.content : `${segment.content}\n`));
  const sources = matchLines(keys, updated);
  const budget: GapDiffBudget = { chars: GAP_DIFF_BUDGET_CHARS };
  let originalEnd = original.length;
  let updatedEnd = updated.length;
  for (let index = updated.length - 1; index >= -1; index--) {
    const match = index === -1 ? -1 : (sources[index] as number);
    if (index !== -1 && match === -1) continue;
    // Gap: updated (index, updatedEnd) against original (match, originalEnd).
    const sameSize = originalEnd - match === updatedEnd - index;
    if (
      sameSize ||
      !alignGapByCharacters(keys, match + 1, originalEnd, updated, index + 1, updatedEnd, sources, budget)
    ) {
      let o = originalEnd - 1;
      for (let u = updatedEnd - 1; u > index && o > match; u--, o--) sources[u] = o;
    }
    originalEnd = match;
    updatedEnd = index;
  }
  return sources;
}

/**
 * Rebuilds the changed middle: breaks that existed keep their bytes, new ones get `lineEnding`. `before` and `after`
 * are the characters around the middle. A lone '\r' directly followed by a '\n' ending would read back as one CRLF
 * and swallow a line, so the written one of the two gives way: a '\r' ending written here before a '\n' that existed
 * (an original break, or the kept text after the middle) becomes '\r\n'; a new '\n' ending, or one right after the
 * kept text's lone '\r', becomes '\r'.
 */
export function restoreMiddle(
  originalRaw: string,
  updated: string,
  lineEnding: LineEnding,
  before: string,
  after: string,
): string {
  const original = splitRawSegments(originalRaw);
  const segments = splitNormalizedSegments(updated);
  const sources = endingSources(original, segments);
  const out: string[] = [];
  let previous = before;
  // Where in `out` the previous break was written (-1: it is `before`, kept outside the middle).
  let previousAt = -1;
  segments.forEach((segment, index) => {
    if (!segment.endsWith('\n')) {
      out.push(segment);
      if (segment !== '') {
        previous = segment;
        previousAt = -1;
      }
      return;
    }
    const content = segment.slice(0, -1);
    const source = sources[index] as number;
    let ending = (source === -1 ? '' : (original[source] as RawSegment).ending) || lineEnding;
    if (ending === '\n' && content === '' && previous.endsWith('\r')) {
      // A '\n' that existed stays and the '\r' written here before it becomes '\r\n' (as before a kept '\n' after
      // the middle); a new '\n', or one after the kept text's lone '\r', becomes '\r'.
      if (source !== -1 && previousAt !== -1) out[previousAt] = '\r\n';
      else ending = '\r';
    }
    out.push(content, ending);
    previous = ending;
    previousAt = out.length - 1;
  });
  // The middle ends with a lone '\r' and the kept text goes on with '\n': make that break a CRLF.
  if (previous === '\r' && after === '\n' && out.length >= 2 && out[out.length - 1] === '') {
    out[out.length - 2] = '\r\n';
  }
  return out.join('');
}

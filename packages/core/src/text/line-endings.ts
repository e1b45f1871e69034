import type { LineEnding } from './codec-types.js';
import { matchLines } from './line-endings-match.js';

/** How many of each line ending a text holds. */
interface EndingCounts {
  lf: number;
  crlf: number;
  cr: number;
}

function countLineEndings(raw: string): EndingCounts {
  let crlf = 0;
  let cr = 0;
  for (let at = raw.indexOf('\r'); at !== -1; at = raw.indexOf('\r', at + 1)) {
    if (raw.charCodeAt(at + 1) === 10) crlf++;
    else cr++;
  }
  let newlines = 0;
  for (let at = raw.indexOf('\n'); at !== -1; at = raw.indexOf('\n', at + 1)) newlines++;
  return { lf: newlines - crlf, crlf, cr };
}

/**
 * The most frequent line ending of `raw`; '\n' when there is none. Ties go to '\n', then '\r\n', then '\r'
 * (the Unix convention unless the file clearly prefers another).
 */
export function detectLineEnding(raw: string): LineEnding {
  const { lf, crlf, cr } = countLineEndings(raw);
  if (lf >= crlf && lf >= cr) return '\n';
  return crlf >= cr ? '\r\n' : '\r';
}

/** Turns every `\r\n` and lone `\r` into `\n`. */
export function normalizeLineEndings(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Chunk size for comparing long strings: equal chunks compare as one memory comparison. */
const COMPARE_CHUNK = 1 << 14;

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at < limit) {
    const end = Math.min(limit, at + COMPARE_CHUNK);
    if (a.slice(at, end) !== b.slice(at, end)) break;
    at = end;
  }
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (length < limit) {
    const size = Math.min(limit - length, COMPARE_CHUNK);
    const aEnd = a.length - length;
    const bEnd = b.length - length;
    if (a.slice(aEnd - size, aEnd) !== b.slice(bEnd - size, bEnd)) break;
    length += size;
  }
  while (length < limit && a.charCodeAt(a.length - length - 1) === b.charCodeAt(b.length - length - 1))
    length++;
  return length;
}

/** Raw offsets of two positions `from` ≤ `to` of the normalised text (only `\r\n` changes lengths). */
function rawOffsets(raw: string, from: number, to: number): [number, number] {
  let pairs = 0;
  let rawFrom = -1;
  for (let at = raw.indexOf('\r\n'); at !== -1; at = raw.indexOf('\r\n', at + 2)) {
    const normalized = at - pairs;
    if (rawFrom === -1 && normalized >= from) rawFrom = from + pairs;
    if (normalized >= to) break;
    pairs++;
  }
  return [rawFrom === -1 ? from + pairs : rawFrom, to + pairs];
}

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
 * matched first; between two matches the remaining segments pair up from the end, because the break after an edited
 * block lies outside the edit (an in-line change keeps its line's ending) while extra breaks inside it are new.
 */
function endingSources(original: readonly RawSegment[], updated: readonly string[]): Int32Array {
  const keys = original.map((segment) => (segment.ending === '' ? segment.content : `${segment.content}\n`));
  const sources = matchLines(keys, updated);
  let originalEnd = original.length;
  let updatedEnd = updated.length;
  for (let index = updated.length - 1; index >= -1; index--) {
    const match = index === -1 ? -1 : (sources[index] as number);
    if (index !== -1 && match === -1) continue;
    // Gap: updated (index, updatedEnd) against original (match, originalEnd), paired from their ends.
    let o = originalEnd - 1;
    for (let u = updatedEnd - 1; u > index && o > match; u--, o--) sources[u] = o;
    originalEnd = match;
    updatedEnd = index;
  }
  return sources;
}

/** Rebuilds the changed middle: breaks that existed keep their bytes, new ones get `lineEnding`. */
function restoreMiddle(originalRaw: string, updated: string, lineEnding: LineEnding): string {
  const original = splitRawSegments(originalRaw);
  const segments = splitNormalizedSegments(updated);
  const sources = endingSources(original, segments);
  const out: string[] = [];
  segments.forEach((segment, index) => {
    if (!segment.endsWith('\n')) {
      out.push(segment);
      return;
    }
    const source = sources[index] as number;
    const ending = source === -1 ? '' : (original[source] as RawSegment).ending;
    out.push(segment.slice(0, -1), ending === '' ? lineEnding : ending);
  });
  return out.join('');
}

/**
 * Writes the line endings back into `updated` ('\n'-normalised text derived from `originalRaw`; stray '\r' are
 * normalised too). Breaks the change did not touch keep their exact original bytes (a mixed file stays mixed), new
 * breaks get `lineEnding`, and an updated text without a final newline stays without one. Linear for a local change:
 * the common prefix and suffix are copied from `originalRaw` and only the lines in between are matched
 * (patience-style, O(n log n), so a completely different text is not quadratic either).
 */
export function restoreLineEndings(originalRaw: string, updated: string, lineEnding: LineEnding): string {
  const target = normalizeLineEndings(updated);
  const counts = countLineEndings(originalRaw);
  const uniform =
    (counts.crlf === 0 && counts.cr === 0 && lineEnding === '\n') ||
    (counts.lf === 0 && counts.cr === 0 && lineEnding === '\r\n') ||
    (counts.lf === 0 && counts.crlf === 0 && lineEnding === '\r');
  // Every ending of the file equals `lineEnding`: kept and new lines alike get it.
  if (uniform) return lineEnding === '\n' ? target : target.replace(/\n/g, lineEnding);

  const original = normalizeLineEndings(originalRaw);
  if (original === target) return originalRaw;
  // Character-exact edges: every break before the first and after the last differing character is kept as is.
  const prefix = commonPrefixLength(original, target);
  const suffix = commonSuffixLength(original, target, Math.min(original.length, target.length) - prefix);
  const [rawStart, rawEnd] = rawOffsets(originalRaw, prefix, original.length - suffix);
  const middle = restoreMiddle(
    originalRaw.slice(rawStart, rawEnd),
    target.slice(prefix, target.length - suffix),
    lineEnding,
  );
  return originalRaw.slice(0, rawStart) + middle + originalRaw.slice(rawEnd);
}

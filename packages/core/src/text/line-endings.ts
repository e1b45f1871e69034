import type { LineEnding } from './codec-types.js';

/** How many of each line ending a text holds. */
export interface EndingCounts {
  lf: number;
  crlf: number;
  cr: number;
}

/** Counts the `\n`, `\r\n` and lone `\r` line endings of `raw`. */
export function countLineEndings(raw: string): EndingCounts {
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
  // Without a '\r' there is nothing to weigh: no line feeds need counting (60,000 of them in a 5 MB file).
  if (!raw.includes('\r')) return '\n';
  const { lf, crlf, cr } = countLineEndings(raw);
  if (lf >= crlf && lf >= cr) return '\n';
  return crlf >= cr ? '\r\n' : '\r';
}

/** Whether every line ending of `raw` is `lineEnding` (true for a text without any). */
export function hasOnlyLineEnding(raw: string, lineEnding: LineEnding): boolean {
  if (!raw.includes('\r')) return lineEnding === '\n' || !raw.includes('\n');
  const counts = countLineEndings(raw);
  return (
    (counts.crlf === 0 && counts.cr === 0 && lineEnding === '\n') ||
    (counts.lf === 0 && counts.cr === 0 && lineEnding === '\r\n') ||
    (counts.lf === 0 && counts.crlf === 0 && lineEnding === '\r')
  );
}

/** Line breaks of `text[from, to)`, a `\n`-normalised text (a text of `n` line breaks has `n + 1` lines). */
export function countLineBreaks(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Turns every `\r\n` and lone `\r` into `\n`. */
export function normalizeLineEndings(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * Maps offsets in `normalizeLineEndings(raw)` to offsets in `raw`: only a `\r\n` changes length (two characters
 * become one), so an offset moves right by the CRLFs that end before it; an offset at a `\n` that was a CRLF lands on
 * its `\r`. One pass for all offsets, which must be sorted ascending.
 */
export function rawOffsets(raw: string, normalizedOffsets: readonly number[]): number[] {
  const result: number[] = [];
  let crlfBefore = 0;
  let nextCrlf = raw.indexOf('\r\n');
  for (const offset of normalizedOffsets) {
    // A CRLF at raw index r sits at normalised index r - crlfBefore; it lies before `offset` when that is < offset.
    while (nextCrlf !== -1 && nextCrlf - crlfBefore < offset) {
      crlfBefore += 1;
      nextCrlf = raw.indexOf('\r\n', nextCrlf + 2);
    }
    result.push(offset + crlfBefore);
  }
  return result;
}

/**
 * Maps offsets in `raw` to offsets in `normalizeLineEndings(raw)`, the inverse of {@link rawOffsets}: an offset
 * between the `\r` and `\n` of a CRLF lands on the `\n` it became. Offsets must be sorted ascending.
 */
export function normalizedOffsets(raw: string, rawOffsetList: readonly number[]): number[] {
  const result: number[] = [];
  let crlfBefore = 0;
  let nextCrlf = raw.indexOf('\r\n');
  for (const offset of rawOffsetList) {
    while (nextCrlf !== -1 && nextCrlf < offset) {
      crlfBefore += 1;
      nextCrlf = raw.indexOf('\r\n', nextCrlf + 2);
    }
    result.push(offset - crlfBefore);
  }
  return result;
}

import type { LineBreak } from './types.js';

/** `\r\n` and lone `\r` become `\n`, the form the model sees. */
export function normalizeLineBreaks(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

/** Writes every line break of a `\n`-normalised text as `lineBreak`. */
export function withLineBreak(normalized: string, lineBreak: LineBreak): string {
  return lineBreak === '\n' ? normalized : normalized.split('\n').join(lineBreak);
}

/**
 * Maps offsets in `normalizeLineBreaks(raw)` back to offsets in `raw`. Only `\r\n` changes length (two
 * characters become one), so a normalised offset moves right by the number of CRLFs that end before it.
 * One pass over the CRLFs of `raw` for all offsets, which must be sorted ascending.
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

/** Whether `index` starts a line of `text` (any of `\n`, `\r\n`, `\r` ends the line before it). */
export function isLineStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text.charCodeAt(index - 1);
  if (before === 10) return true;
  return before === 13 && text.charCodeAt(index) !== 10;
}

/** Whether `index` ends a line of `text` (a line break or the end of the text follows). */
export function isLineEnd(text: string, index: number): boolean {
  if (index === text.length) return true;
  const at = text.charCodeAt(index);
  if (at === 10) return text.charCodeAt(index - 1) !== 13;
  return at === 13;
}

/** Length of the line break starting at `index` (0 when there is none). */
export function lineBreakLength(text: string, index: number): number {
  const at = text.charCodeAt(index);
  if (at === 13) return text.charCodeAt(index + 1) === 10 ? 2 : 1;
  return at === 10 ? 1 : 0;
}

/**
 * 1-based line numbers (as the model sees them: `\r\n`, `\r` and `\n` each end a line) of sorted offsets
 * in `text`, in one pass.
 */
export function lineNumbersAt(text: string, sortedOffsets: readonly number[]): number[] {
  const hasCarriageReturn = text.indexOf('\r') !== -1;
  const result: number[] = [];
  let line = 1;
  let position = 0;
  for (const offset of sortedOffsets) {
    if (hasCarriageReturn) {
      for (; position < offset; position += 1) {
        const code = text.charCodeAt(position);
        if (code === 10 || (code === 13 && text.charCodeAt(position + 1) !== 10)) line += 1;
      }
    } else {
      let next = text.indexOf('\n', position);
      while (next !== -1 && next < offset) {
        line += 1;
        next = text.indexOf('\n', next + 1);
      }
      position = offset;
    }
    result.push(line);
  }
  return result;
}

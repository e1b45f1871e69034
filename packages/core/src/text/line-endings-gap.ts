import { jsdiff } from '../fs/load-on-use.js';

/** Gaps larger than this (characters per side) are not diffed character by character. */
const GAP_DIFF_MAX_CHARS = 4096;
/** A gap needing more edits than this is too different for a character alignment to mean anything. */
const GAP_DIFF_MAX_EDITS = 128;

/**
 * Characters one restore may diff in all its gaps together. Each diff costs up to (size × edits) steps, so this caps
 * a pathological rewrite (thousands of differing gaps) at well under a second; later gaps pair from the end.
 */
export const GAP_DIFF_BUDGET_CHARS = 1 << 20;

/** What is left of `GAP_DIFF_BUDGET_CHARS` for one restore (an object the caller creates per call). */
export interface GapDiffBudget {
  chars: number;
}

/** Whether lines [from, to) are small enough in total to diff by characters (stops counting early). */
function fitsDiff(lines: readonly string[], from: number, to: number): boolean {
  let size = 0;
  for (let index = from; index < to; index++) {
    size += (lines[index] as string).length;
    if (size > GAP_DIFF_MAX_CHARS) return false;
  }
  return true;
}

function sharedPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let length = 0;
  while (length < limit && a.charCodeAt(length) === b.charCodeAt(length)) length++;
  return length;
}

function sharedSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (length < limit && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length))
    length++;
  return length;
}

/**
 * Aligns the breaks of a gap between matched lines by a character diff: an updated break that lines up with an
 * original break keeps that break's ending. Used when the two sides of a gap have different line counts (several
 * edits on neighbouring lines), where pairing lines from the end would give endings to the wrong lines.
 * Segments are '\n'-normalised lines with their '\n' (the last one of a text may lack it); ranges are [from, to).
 * Returns false when the gap is too large or too different, or `budget` is spent; `sources` is then untouched.
 */
export function alignGapByCharacters(
  original: readonly string[],
  originalFrom: number,
  originalTo: number,
  updated: readonly string[],
  updatedFrom: number,
  updatedTo: number,
  sources: Int32Array,
  budget: GapDiffBudget,
): boolean {
  if (!fitsDiff(original, originalFrom, originalTo) || !fitsDiff(updated, updatedFrom, updatedTo)) {
    return false;
  }
  const originalText = original.slice(originalFrom, originalTo).join('');
  const updatedText = updated.slice(updatedFrom, updatedTo).join('');
  const cost = originalText.length + updatedText.length;
  if (cost > budget.chars) return false;
  budget.chars -= cost;
  // The text next to the matched lines around the gap is aligned first (it is where each edit ends), then the rest.
  const prefix = sharedPrefixLength(originalText, updatedText);
  const suffix = sharedSuffixLength(
    originalText,
    updatedText,
    Math.min(originalText.length, updatedText.length) - prefix,
  );
  const core = jsdiff().diffChars(
    originalText.slice(prefix, originalText.length - suffix),
    updatedText.slice(prefix, updatedText.length - suffix),
    { maxEditLength: GAP_DIFF_MAX_EDITS },
  );
  if (!core) return false;
  const changes = [
    { value: originalText.slice(0, prefix), added: false, removed: false },
    ...core,
    { value: originalText.slice(originalText.length - suffix), added: false, removed: false },
  ];
  let originalBreaks = 0;
  let updatedBreaks = 0;
  for (const change of changes) {
    for (const character of change.value) {
      if (character !== '\n') continue;
      if (!change.added && !change.removed)
        sources[updatedFrom + updatedBreaks] = originalFrom + originalBreaks;
      if (!change.added) originalBreaks++;
      if (!change.removed) updatedBreaks++;
    }
  }
  return true;
}

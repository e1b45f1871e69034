import { showControlCharacters } from './control-pictures.js';
import { widenToCharacters } from './cut-middle.js';

/** Where a searched text came closest to a file when it was not found. */
export interface ClosestText {
  /** 1-based line number of the excerpt's first line. */
  line: number;
  excerpt: string;
}

/** Lines of the file examined when looking for the closest text (bounds the cost on huge files). */
export const CLOSEST_TEXT_MAX_LINES = 50_000;
/** Least bigram similarity (Dice coefficient, 0..1) for a line to be offered as the closest text. */
export const CLOSEST_TEXT_MIN_SIMILARITY = 0.5;
/** Lines shown in the closest-text excerpt at most. */
export const CLOSEST_TEXT_EXCERPT_LINES = 5;
/** Characters kept of each excerpt line (longer lines end with `…`). */
export const CLOSEST_TEXT_EXCERPT_LINE_CHARS = 160;

/** The first {@link CLOSEST_TEXT_EXCERPT_LINE_CHARS} characters of `line`, an emoji across the cut kept whole. */
function excerptLineHead(line: string): string {
  const [, end] = widenToCharacters(line, 0, CLOSEST_TEXT_EXCERPT_LINE_CHARS);
  return line.slice(0, end);
}

/** Character bigrams of `text` with their counts, keyed by the two UTF-16 codes. */
function bigrams(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (let index = 0; index + 1 < text.length; index += 1) {
    const key = text.charCodeAt(index) * 65536 + text.charCodeAt(index + 1);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Dice coefficient of the bigram multisets of `text` and a precomputed `target` of `targetLength` chars. */
function similarity(text: string, target: Map<number, number>, targetLength: number): number {
  const own = bigrams(text);
  let shared = 0;
  for (const [key, count] of own) shared += Math.min(count, target.get(key) ?? 0);
  return (2 * shared) / (text.length - 1 + (targetLength - 1));
}

/**
 * Where the model's `old` (StrReplaceFile) or a patch chunk's old lines (ApplyPatch) most nearly appear, for the
 * not-found error. The longest line of `old` (trimmed) is
 * compared with each line of the file among the first {@link CLOSEST_TEXT_MAX_LINES} whose length is within
 * a factor of two, by bigram Dice similarity; the best line at or above {@link CLOSEST_TEXT_MIN_SIMILARITY}
 * wins (the earliest on a tie). The excerpt starts where `old` would start (shifted back by that line's index in
 * `old`) and spans as many lines as `old`, at most {@link CLOSEST_TEXT_EXCERPT_LINES}.
 *
 * `searchable` is the content as compared (`\n` line breaks, straight quotes); `shown` has the same offsets
 * and is what the excerpt quotes (the file's own characters, each control character but tab as its picture, as ReadFile
 * shows them). `old` must be normalised like `searchable`.
 */
export function findClosestText(searchable: string, shown: string, old: string): ClosestText | undefined {
  const oldLines = (old.endsWith('\n') ? old.slice(0, -1) : old).split('\n');
  let keyIndex = 0;
  let key = '';
  oldLines.forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.length > key.length) {
      key = trimmed;
      keyIndex = index;
    }
  });
  if (key.length < 3) return undefined;
  const target = bigrams(key);

  const lineStarts: number[] = [];
  let bestLine = -1;
  let bestScore = CLOSEST_TEXT_MIN_SIMILARITY;
  let start = 0;
  for (let line = 0; line < CLOSEST_TEXT_MAX_LINES && start <= searchable.length; line += 1) {
    const newline = searchable.indexOf('\n', start);
    const end = newline === -1 ? searchable.length : newline;
    lineStarts.push(start);
    const length = end - start;
    if (length >= key.length / 2 && length <= key.length * 2 + 200) {
      const text = searchable.slice(start, end).trim();
      if (text.length >= key.length / 2 && text.length <= key.length * 2 && text.length >= 2) {
        const score = similarity(text, target, key.length);
        if (score > bestScore || (score === bestScore && bestLine === -1)) {
          bestScore = score;
          bestLine = line;
        }
      }
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  if (bestLine === -1) return undefined;

  const first = Math.max(0, bestLine - keyIndex);
  const count = Math.min(oldLines.length, CLOSEST_TEXT_EXCERPT_LINES);
  const excerpt: string[] = [];
  let position = lineStarts[first] ?? 0;
  for (let index = 0; index < count && position <= shown.length; index += 1) {
    const newline = shown.indexOf('\n', position);
    const end = newline === -1 ? shown.length : newline;
    // Shown as ReadFile shows a line: a raw ESC or BEL of the file never reaches the model, nor a terminal printing it.
    const text = showControlCharacters(shown.slice(position, end));
    excerpt.push(text.length > CLOSEST_TEXT_EXCERPT_LINE_CHARS ? `${excerptLineHead(text)}…` : text);
    if (newline === -1) break;
    position = newline + 1;
  }
  return { line: first + 1, excerpt: excerpt.join('\n') };
}

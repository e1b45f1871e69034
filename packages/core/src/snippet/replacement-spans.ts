import type { TextReplacement } from '../text/text-replacement.js';
import type { LineSpan } from './line-snippet.js';

/**
 * Where `replacements` (sorted, apart, offsets of the old text) stand in the new text they made, as 1-based line
 * spans of the new text: the lines the inserted text covers, or the point where a deletion was.
 */
export function replacementLineSpans(newText: string, replacements: readonly TextReplacement[]): LineSpan[] {
  const spans: LineSpan[] = [];
  let delta = 0;
  let line = 1;
  let scanned = 0;
  const lineAt = (offset: number): number => {
    // Offsets only grow, so one pass over the text counts every line break once.
    for (
      let at = newText.indexOf('\n', scanned);
      at !== -1 && at < offset;
      at = newText.indexOf('\n', at + 1)
    ) {
      line++;
      scanned = at + 1;
    }
    return line;
  };
  for (const replacement of replacements) {
    const start = replacement.start + delta;
    const end = start + replacement.text.length;
    delta += replacement.text.length - (replacement.end - replacement.start);
    const from = lineAt(start);
    if (end > start) {
      spans.push({ from, count: lineAt(end - 1) - from + 1 });
      continue;
    }
    // A deletion inside a line changed that line; one of whole lines left a point between two lines.
    const insideLine = start > 0 && newText.charCodeAt(start - 1) !== 10;
    spans.push({ from, count: insideLine ? 1 : 0 });
  }
  return spans;
}

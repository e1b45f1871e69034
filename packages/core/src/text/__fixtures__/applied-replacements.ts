import type { TextReplacement } from '../text-replacement.js';

/** `text` with `replacements` made (sorted by `start`, never overlapping, as a plan gives them): what a test expects. */
export function appliedReplacements(text: string, replacements: readonly TextReplacement[]): string {
  let result = '';
  let at = 0;
  for (const replacement of replacements) {
    result += text.slice(at, replacement.start) + replacement.text;
    at = replacement.end;
  }
  return result + text.slice(at);
}

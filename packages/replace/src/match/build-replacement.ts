import { normalizeLineBreaks, rawOffsets, withLineBreak } from './line-breaks.js';
import type { LineBreak } from './types.js';

/**
 * The raw text that replaces `rawSegment` (the file's matched text, original line breaks) with `replacement`
 * (`\n`-normalised). Where the two agree at the start and at the end, the file's own characters are kept, so
 * unchanged lines inside the region keep their exact line breaks; the changed middle is written with the
 * file's dominant `lineBreak`.
 */
export function buildReplacement(rawSegment: string, replacement: string, lineBreak: LineBreak): string {
  const segment = normalizeLineBreaks(rawSegment);
  const limit = Math.min(segment.length, replacement.length);
  let prefix = 0;
  while (prefix < limit && segment.charCodeAt(prefix) === replacement.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (
    suffix < limit - prefix &&
    segment.charCodeAt(segment.length - 1 - suffix) ===
      replacement.charCodeAt(replacement.length - 1 - suffix)
  ) {
    suffix += 1;
  }
  const [rawPrefixEnd = prefix, rawSuffixStart = segment.length - suffix] =
    segment === rawSegment
      ? [prefix, segment.length - suffix]
      : rawOffsets(rawSegment, [prefix, segment.length - suffix]);
  const middle = withLineBreak(replacement.slice(prefix, replacement.length - suffix), lineBreak);
  return rawSegment.slice(0, rawPrefixEnd) + middle + rawSegment.slice(rawSuffixStart);
}

import { counted } from './counted.js';

/** What stands for the characters a cut removed (docs/diff-blocks.md, docs/paths.md#how-paths-are-shown). */
export function cutMarker(count: number): string {
  return `[...${counted(count, 'character')} cut...]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `[from, to)` widened so that neither end falls between the two halves of a surrogate pair: a cut never splits a
 * character.
 */
export function widenToCharacters(text: string, from: number, to: number): [number, number] {
  const start = from > 0 && isHighSurrogate(text.charCodeAt(from - 1)) ? from - 1 : from;
  const end = to < text.length && to > 0 && isHighSurrogate(text.charCodeAt(to - 1)) ? to + 1 : to;
  return [start, end];
}

/** `text` as it is when it has at most `maxChars` characters, else its two ends around a {@link cutMarker}. */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  const [, headEnd] = widenToCharacters(text, 0, half);
  const [tailStart] = widenToCharacters(text, text.length - half, text.length);
  return `${text.slice(0, headEnd)}${cutMarker(tailStart - headEnd)}${text.slice(tailStart)}`;
}

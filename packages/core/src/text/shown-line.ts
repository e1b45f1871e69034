import { showControlCharacters } from './control-pictures.js';
import { numberedLine } from './numbered-line.js';

// A line as ReadFile shows it (docs/read-file.md), in one place: ReadFile's pages, and every other tool that shows
// lines the model will page or edit from in ReadFile's numbering (NotebookEdit's cell).

/** Longest line shown, in code points including its line break; longer lines are cut and end with `...`. */
export const SHOWN_LINE_MAX_LENGTH = 2000;

/** A line ready to be shown: cut to the length limit, with its size as counted against the byte limit. */
export interface ShownLine {
  number: number;
  text: string;
  terminated: boolean;
  truncated: boolean;
  /** UTF-8 bytes of the shown text plus its `\n`. */
  bytes: number;
}

const ELLIPSIS = '...';

/** The first `count` code points of `text` (an emoji is one code point, never split). */
function firstCodePoints(text: string, count: number): string {
  let units = 0;
  let seen = 0;
  while (seen < count && units < text.length) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
    seen += 1;
  }
  return text.slice(0, units);
}

/** Whether `text` has more than `limit` code points (stops counting past the limit). */
function longerThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  return firstCodePoints(text, limit).length < text.length;
}

/**
 * Applies the per-line limit: a line longer than {@link SHOWN_LINE_MAX_LENGTH} code points, its line break included,
 * keeps as many code points as leave room for `...` and the break. `cut` says the reader already knows it is longer.
 * Control characters are shown as their pictures (`showControlCharacters`).
 */
export function shownLine(number: number, line: string, terminated: boolean, cut: boolean): ShownLine {
  const text = showControlCharacters(line);
  const breakLength = terminated ? 1 : 0;
  const truncated = cut || longerThan(text, SHOWN_LINE_MAX_LENGTH - breakLength);
  const shown = truncated
    ? firstCodePoints(text, SHOWN_LINE_MAX_LENGTH - ELLIPSIS.length - breakLength) + ELLIPSIS
    : text;
  return {
    number,
    text: shown,
    terminated,
    truncated,
    bytes: Buffer.byteLength(shown, 'utf8') + breakLength,
  };
}

/** `{number right-aligned in 6}\t{text}` and `\n` when the line had a break. */
export function formatLines(lines: readonly ShownLine[]): string {
  let output = '';
  for (const line of lines) output += `${numberedLine(line.number, line.text)}${line.terminated ? '\n' : ''}`;
  return output;
}

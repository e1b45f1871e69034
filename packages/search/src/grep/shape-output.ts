import { escapeForDisplay } from '@kimi-tools/core/toolkit';
import { GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS } from '../limits.js';
import type { FileBlock } from './parse-output.js';

/** Marks a line cut at {@link GREP_MAX_LINE_CHARS}. */
export const LINE_TRUNCATION_MARK = '[...truncated]';

/** Content-mode lines of the given blocks: `path:LINE:text` / `path-LINE-text` (or without numbers), `--` gaps. */
export function renderContent(
  blocks: readonly FileBlock[],
  withLineNumbers: boolean,
  gapsBetweenFiles: boolean,
): string[] {
  const lines: string[] = [];
  blocks.forEach((block, index) => {
    if (index > 0 && gapsBetweenFiles) lines.push('--');
    // A newline or a terminal escape in a file name is shown escaped, so each output line stays one line.
    const shownPath = escapeForDisplay(block.path);
    for (const line of block.lines) {
      if (line === null) {
        lines.push('--');
        continue;
      }
      const mark = line.isMatch ? ':' : '-';
      lines.push(
        withLineNumbers
          ? `${shownPath}${mark}${line.lineNumber}${mark}${line.text}`
          : `${shownPath}${mark}${line.text}`,
      );
    }
  });
  return lines;
}

/** One page of lines and the note that says how to get the next one. */
export interface Page {
  lines: string[];
  /** `Results truncated to ...` when lines remain after this page, else `null`. */
  note: string | null;
}

/** Skips `offset` lines, then keeps `headLimit` (0 or null: all) — docs/grep.md step 5. */
export function paginate(lines: readonly string[], offset: number, headLimit: number | null): Page {
  const rest = lines.slice(offset);
  if (headLimit === null || headLimit === 0 || rest.length <= headLimit) return { lines: rest, note: null };
  return {
    lines: rest.slice(0, headLimit),
    note: `Results truncated to ${headLimit} lines (total: ${lines.length}). Use offset=${offset + headLimit} to see more.`,
  };
}

/** The output text and whether anything was cut to fit it. */
export interface CappedOutput {
  text: string;
  truncated: boolean;
}

/**
 * Cuts lines at 2,000 characters (the marker included) and the whole output at `maxChars` (50,000 by default), at a line boundary
 * (docs/grep.md step 7).
 */
export function capOutput(lines: readonly string[], maxChars: number = GREP_MAX_OUTPUT_CHARS): CappedOutput {
  let truncated = false;
  let length = 0;
  const kept: string[] = [];
  for (const original of lines) {
    let line = original;
    if (line.length > GREP_MAX_LINE_CHARS) {
      // The cap holds the marker too, as ReadFile's does; never cut between the two halves of a surrogate pair (an
      // emoji): the text must stay well formed.
      const room = GREP_MAX_LINE_CHARS - LINE_TRUNCATION_MARK.length;
      const end = /[\uD800-\uDBFF]/.test(line.charAt(room - 1)) ? room - 1 : room;
      line = line.slice(0, end) + LINE_TRUNCATION_MARK;
      truncated = true;
    }
    const added = (kept.length > 0 ? 1 : 0) + line.length;
    if (length + added > maxChars) {
      truncated = true;
      break;
    }
    kept.push(line);
    length += added;
  }
  return { text: kept.join('\n'), truncated };
}

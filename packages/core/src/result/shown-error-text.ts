import { cutMiddle } from '../text/cut-middle.js';
import { boundedForDisplay, showUnsafeCharacters, SHOWN_PATH_MAX_CHARS } from '../text/escape-for-display.js';
import { errorText } from './tool-result.js';

/** Longest error text shown before it is cut: room for the two paths an error may quote (a rename's), each whole. */
export const SHOWN_ERROR_MAX_CHARS = 2 * SHOWN_PATH_MAX_CHARS + 1_000;

/**
 * The text of a thrown value as a message shows it (`Failed to ... Error: {e}`): it may quote a path raw
 * (`ENOENT: ..., open '{path}'`) or be whatever a host's code threw, so it is escaped as paths are and cut in the
 * middle past {@link SHOWN_ERROR_MAX_CHARS} (docs/results.md#unexpected-failures).
 */
export function shownErrorText(error: unknown): string {
  return boundedForDisplay(errorText(error), SHOWN_ERROR_MAX_CHARS);
}

/**
 * Error output laid out in lines (a program's stderr: ripgrep's parse error, its pattern over marks) as a message shows
 * it: each line as a line of a file is shown ({@link showUnsafeCharacters}: a control character as its one-character
 * picture, so no line is split or rewritten and the columns under it stay in place), the whole cut in the middle past
 * {@link SHOWN_ERROR_MAX_CHARS}.
 */
export function shownErrorLines(text: string): string {
  return cutMiddle(text, SHOWN_ERROR_MAX_CHARS).split('\n').map(showUnsafeCharacters).join('\n');
}

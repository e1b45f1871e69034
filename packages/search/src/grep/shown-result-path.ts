import { escapeForDisplay, nameSeparators, type NameSeparators } from '@kimi-tools/core/toolkit';

// Grep's content and count lines put a separator after the path (docs/grep.md#output-formats); a path holding it is
// shown quoted, so the line splits one way: at the first `:` of a matching line or a count, at the first `-{line}-`
// (or, without line numbers, the first `-`) of a context line.

/** Matching lines and counts only: `{path}:{line}:{text}`, `{path}:{text}`, `{path}:{count}`. */
const AFTER_COLON = nameSeparators(':');
/** Context lines with numbers too, `{path}-{line}-{text}`: a path holding `-{digits}-` or ending in `-{digits}`. */
const WITH_NUMBERED_CONTEXT = nameSeparators(':', /-\d+(?:-|$)/);
/** Context lines without numbers too, `{path}-{text}`: any `-`. */
const WITH_CONTEXT = nameSeparators(':', '-');

/** The separators of a content or count answer: with context lines or not, with line numbers or not. */
export function resultLineSeparators(context: boolean, withLineNumbers: boolean): NameSeparators {
  if (!context) return AFTER_COLON;
  return withLineNumbers ? WITH_NUMBERED_CONTEXT : WITH_CONTEXT;
}

/** A path as a count line of Grep shows it, `{path}:{count}`. */
export function shownCountPath(path: string): string {
  return escapeForDisplay(path, AFTER_COLON);
}

/** A '\n'-normalised text cut into lines, as the diff compares and shows them. */
export interface DiffLines {
  /** The lines as shown, without line endings. */
  shown: string[];
  /**
   * The lines as compared: the same strings, except that a last line without a final '\n' carries a marker, so
   * that `a` and `a\n` differ (the file's bytes change) while both show the line `a`.
   */
  keys: string[];
}

// A '\n' can never occur inside a line, so appending one makes a key no real line can equal.
const NO_FINAL_NEWLINE_MARK = '\n';

/** Number of lines of a '\n'-normalised text: a final '\n' ends the last line, it does not start a new one. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

/** Cuts a '\n'-normalised text into lines to show and keys to compare. */
export function splitDiffLines(text: string): DiffLines {
  if (text.length === 0) return { shown: [], keys: [] };
  const endsWithNewline = text.endsWith('\n');
  const shown = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  if (endsWithNewline) return { shown, keys: shown };
  const keys = shown.slice();
  keys[keys.length - 1] += NO_FINAL_NEWLINE_MARK;
  return { shown, keys };
}

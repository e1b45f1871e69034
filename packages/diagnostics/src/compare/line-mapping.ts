/**
 * How the lines of a file moved in a change: lines before the first changed one keep their number, lines after the
 * last changed one are shifted, lines in between were changed. Edits are small and files large, so the common start
 * and end are found by comparing lines (one pass, no diff algorithm); several edits in one change count as one
 * changed region, which only makes the match of old problems in between rely on their keys.
 */
export interface LineMapping {
  /** The line after the change of an unchanged line before it, or `undefined` when the line was changed. */
  newLineOf(oldLine: number): number | undefined;
  /** Whether a line after the change is one the change wrote. */
  isChanged(newLine: number): boolean;
}

/** The mapping of the change from `before` to `after`, both '\n'-separated. */
export function lineMapping(before: string, after: string): LineMapping {
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  const limit = Math.min(oldLines.length, newLines.length);
  let head = 0;
  while (head < limit && oldLines[head] === newLines[head]) head += 1;
  let tail = 0;
  while (
    tail < limit - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail += 1;
  }
  const shift = newLines.length - oldLines.length;
  const oldTailStart = oldLines.length - tail + 1;
  return {
    newLineOf: (oldLine) => {
      if (oldLine <= head) return oldLine;
      if (oldLine >= oldTailStart) return oldLine + shift;
      return undefined;
    },
    isChanged: (newLine) => newLine > head && newLine < oldTailStart + shift,
  };
}

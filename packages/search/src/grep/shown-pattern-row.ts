import { showUnsafeCharacters } from '@kimi-tools/core/toolkit';

/** A line of a pattern as an error shows it, and where each of its code points starts in the shown text. */
export interface ShownPatternRow {
  /** The line with its unsafe characters shown as a line of a file shows them (`␛`, `\u202e`). */
  readonly text: string;
  /** `columns[i]`: the shown column of the line's code point `i`; `columns[length]`: the shown text's length. */
  readonly columns: readonly number[];
}

/**
 * A line of a pattern shown under an error, with the columns its marks move to: a control character's picture is one
 * column, as the character was, but another unsafe character's escape is six, and the marks after it move with it.
 */
export function shownPatternRow(line: string): ShownPatternRow {
  let text = '';
  let width = 0;
  const columns: number[] = [];
  for (const point of line) {
    columns.push(width);
    const shown = showUnsafeCharacters(point);
    text += shown;
    width += shown === point ? 1 : Array.from(shown).length;
  }
  columns.push(width);
  return { text, columns };
}

/** The shown columns `[from, to)` cover, for code points `[from, to)` of the line; `to` may lie past its end. */
export function shownSpan(row: ShownPatternRow, from: number, to: number): { from: number; to: number } {
  const last = row.columns.length - 1;
  const at = (column: number) => (column <= last ? row.columns[column]! : row.columns[last]! + column - last);
  return { from: at(from), to: at(to) };
}

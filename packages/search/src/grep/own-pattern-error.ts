/**
 * ripgrep joins its patterns as `(?:a)|(?:b)` before parsing, so a parse error shows the pattern wrapped in `(?:` and
 * `)` with its marks counted in that text. The model must read the pattern it wrote: this shows that one instead and
 * moves the marks under it (docs/grep.md, "Errors"). Columns are counted in code points, as ripgrep counts them.
 */

import { shownPatternRow, shownSpan, type ShownPatternRow } from './shown-pattern-row.js';

const HEADER = 'regex parse error:';
const WRAP_OPEN = '(?:';

/** What ripgrep's parser says of a pattern ending in a lone backslash, which the wrapping turns into an escaped `)`. */
const INCOMPLETE_ESCAPE = 'error: incomplete escape sequence, reached end of pattern prematurely';

/** A mark line: spaces with `^` (the error's place) and `-` (a second place it names). */
const MARKS = /^[ ^-]*[\^-][ ^-]*$/;

/** A mark under the pattern: its column and `^` or `-`. */
interface Mark {
  column: number;
  mark: string;
}

interface Row {
  /** Where the row's pattern text starts: four spaces, or `{n}: ` when the pattern has several lines. */
  prefix: string;
  /** Index of the row's line in the error output. */
  line: number;
  /** Index of its mark line, or -1. */
  marks: number;
}

/**
 * The error output of ripgrep, with `pattern` shown as written wherever ripgrep showed its wrapped form, each of its
 * lines as a line of a file is shown (`shownPatternRow`), the marks under the characters they marked.
 */
export function withOwnPattern(stderr: string, pattern: string): string {
  const lines = stderr.split('\n');
  const header = lines.findIndex((line) => line.endsWith(HEADER));
  if (header < 0) return stderr;
  const wrapped = `${WRAP_OPEN}${pattern})`.split('\n');
  const own = pattern.split('\n');
  const rows = findRows(lines, header, wrapped);
  if (rows === undefined) return stderr;

  const marks = rows.map((row, index) =>
    row.marks < 0 ? [] : ownMarks(lines[row.marks] as string, row.prefix.length, index, wrapped, own),
  );
  // A mark on the added `(?:` or `)`: the pattern's own parentheses do not pair up, and ripgrep's place is not one in
  // the model's text; a trailing lone backslash escaped the added `)` and the parser complained of something else.
  const onWrapping = marks.some((row) => row.some((mark) => mark === undefined));
  const lastRow = own.length - 1;
  const lonelyBackslash = onWrapping && /(?:^|[^\\])(?:\\\\)*\\$/.test(pattern);

  // Each line of ripgrep's output that shows the wrapped pattern or its marks, and the lines shown instead.
  const replaced = new Map<number, string[]>();
  rows.forEach((row, index) => {
    let shown: Mark[] = [];
    if (lonelyBackslash) {
      if (index === lastRow) shown = [{ column: codePoints(own[lastRow] as string).length - 1, mark: '^' }];
    } else if (!onWrapping) {
      shown = marks[index] as Mark[];
    }
    const ownRow = shownPatternRow(own[index] as string);
    replaced.set(row.line, [
      `${row.prefix}${ownRow.text}`,
      ...(shown.length > 0 ? [markLine(row.prefix.length, shown, ownRow)] : []),
    ]);
    if (row.marks >= 0) replaced.set(row.marks, []);
  });
  if (lonelyBackslash) {
    const kind = lines.findIndex((line, at) => at > header && line.startsWith('error: '));
    if (kind >= 0) replaced.set(kind, [INCOMPLETE_ESCAPE]);
  }
  return lines.flatMap((line, index) => replaced.get(index) ?? [line]).join('\n');
}

/** The lines showing each row of the wrapped pattern, with their mark lines; `undefined` when the layout is another. */
function findRows(lines: string[], header: number, wrapped: string[]): Row[] | undefined {
  const width = String(wrapped.length).length;
  const rows: Row[] = [];
  let at = header + 1;
  for (let index = 0; index < wrapped.length; index++) {
    const prefix = wrapped.length === 1 ? '    ' : `${String(index + 1).padStart(width)}: `;
    const line = lines.indexOf(`${prefix}${wrapped[index]}`, at);
    if (line < 0) return undefined;
    const next = lines[line + 1] ?? '';
    const hasMarks = next.startsWith(' '.repeat(prefix.length)) && MARKS.test(next);
    rows.push({ prefix, line, marks: hasMarks ? line + 1 : -1 });
    at = line + (hasMarks ? 2 : 1);
  }
  return rows;
}

/**
 * The marks of one row moved from the wrapped pattern to the model's: `undefined` for a mark on the added `(?:` or
 * `)`; a mark just past the wrapped text (the end of the pattern) moves to just past the model's.
 */
function ownMarks(
  markText: string,
  indent: number,
  row: number,
  wrapped: string[],
  own: string[],
): Array<Mark | undefined> {
  const shift = row === 0 ? WRAP_OPEN.length : 0;
  const last = row === own.length - 1;
  const ownLength = codePoints(own[row] as string).length;
  const moved: Array<Mark | undefined> = [];
  codePoints(markText.slice(indent)).forEach((mark, column) => {
    if (mark === ' ') return;
    const ownColumn = column - shift;
    if (ownColumn < 0 || (last && ownColumn === ownLength)) moved.push(undefined);
    else if (last && column === codePoints(wrapped[row] as string).length)
      moved.push({ column: ownLength, mark });
    else moved.push({ column: ownColumn, mark });
  });
  return moved;
}

/** The marks under a row as it is shown: each under every column its code point is shown in. */
function markLine(indent: number, marks: Mark[], row: ShownPatternRow): string {
  const cells: string[] = [];
  for (const { column, mark } of marks) {
    const { from, to } = shownSpan(row, column, column + 1);
    while (cells.length < from) cells.push(' ');
    for (let at = from; at < to; at++) cells[at] = mark;
  }
  return `${' '.repeat(indent)}${cells.join('')}`;
}

function codePoints(text: string): string[] {
  return Array.from(text);
}

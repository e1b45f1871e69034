/** One line ripgrep printed in content mode. */
export interface ContentLine {
  isMatch: boolean;
  lineNumber: number;
  /** The line without its line ending. */
  text: string;
}

/** A file's lines in content mode; `null` marks a `--` gap between non-adjacent groups of the same file. */
export interface FileBlock {
  path: string;
  lines: Array<ContentLine | null>;
}

/** A file and its number of matches (count mode). */
export interface FileCount {
  path: string;
  count: number;
}

// These parsers read ripgrep's `--null` output (a NUL after every file name). Output cut short by a timeout may
// end mid-record: only complete records are returned.

/** Count mode: `path\0COUNT\n` per file. */
export function parseCounts(output: string): FileCount[] {
  const counts: FileCount[] = [];
  let position = 0;
  for (;;) {
    const nul = output.indexOf('\0', position);
    if (nul < 0) break;
    const newline = output.indexOf('\n', nul);
    if (newline < 0) break;
    const count = Number(output.slice(nul + 1, newline));
    if (Number.isInteger(count)) counts.push({ path: output.slice(position, nul), count });
    position = newline + 1;
  }
  return counts;
}

/**
 * Content mode with line numbers: `path\0LINE:text\n` (match), `path\0LINE-text\n` (context), `--\n` (gap).
 * Lines of one file are gathered into one block even if ripgrep interleaved files; gaps between files are dropped
 * (the caller puts its own between blocks).
 */
export function parseContent(output: string): FileBlock[] {
  const blocks = new Map<string, FileBlock>();
  let current: FileBlock | undefined;
  let gapPending = false;
  let position = 0;
  while (position < output.length) {
    // With `--crlf`, ripgrep ends some gap lines with `\r\n`.
    const gapLength = output.startsWith('--\n', position) ? 3 : output.startsWith('--\r\n', position) ? 4 : 0;
    if (gapLength > 0) {
      gapPending = true;
      position += gapLength;
      continue;
    }
    const nul = output.indexOf('\0', position);
    if (nul < 0) break;
    const newline = output.indexOf('\n', nul);
    if (newline < 0) break;
    const path = output.slice(position, nul);
    let cursor = nul + 1;
    while (cursor < newline && output.charCodeAt(cursor) >= 48 && output.charCodeAt(cursor) <= 57) cursor++;
    const marker = output[cursor];
    if (cursor > nul + 1 && (marker === ':' || marker === '-')) {
      let text = output.slice(cursor + 1, newline);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      const line: ContentLine = {
        isMatch: marker === ':',
        lineNumber: Number(output.slice(nul + 1, cursor)),
        text,
      };
      if (current?.path !== path) {
        current = blocks.get(path);
        if (current === undefined) {
          current = { path, lines: [] };
          blocks.set(path, current);
        } else {
          current.lines.push(null);
        }
      } else if (gapPending) {
        current.lines.push(null);
      }
      current.lines.push(line);
    }
    gapPending = false;
    position = newline + 1;
  }
  return [...blocks.values()];
}

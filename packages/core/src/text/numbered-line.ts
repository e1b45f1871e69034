/** One line as ReadFile shows it: the 1-based number right-aligned in 6 characters, a tab, the text. */
export function numberedLine(number: number, text: string): string {
  return `${String(number).padStart(6)}\t${text}`;
}

// Read back: text a model copied from ReadFile's output carries these prefixes, which are not in the file.

/** ReadFile's prefix of a line: the number (right-aligned, so maybe after spaces) and a tab; an empty line may lose the tab. */
const PREFIX = /^ *(\d+)(?:\t|$)/;

/** The lines of `text` (`\n`-normalised), a final line break kept apart. */
function splitLines(text: string): { lines: string[]; tail: string } {
  const tail = text.endsWith('\n') ? '\n' : '';
  return { lines: (tail ? text.slice(0, -1) : text).split('\n'), tail };
}

/**
 * `text` without ReadFile's line-number prefixes, when every line carries one and the numbers count up by one (text
 * copied from a ReadFile output); otherwise undefined. The consecutive numbers keep a file of numbered rows (a TSV)
 * from passing for copied output.
 */
export function stripLineNumbers(text: string): string | undefined {
  const { lines, tail } = splitLines(text);
  let expected: number | undefined;
  const stripped: string[] = [];
  for (const line of lines) {
    const match = PREFIX.exec(line);
    if (match === null) return undefined;
    const number = Number(match[1]);
    if (expected !== undefined && number !== expected) return undefined;
    expected = number + 1;
    stripped.push(line.slice(match[0].length));
  }
  return stripped.join('\n') + tail;
}

/** `text` without line-number prefixes when every line carries one (its numbers may jump: lines were added); else as is. */
export function stripNewLineNumbers(text: string): string {
  if (text.length === 0) return text;
  const { lines, tail } = splitLines(text);
  const matches = lines.map((line) => PREFIX.exec(line));
  if (matches.some((match) => match === null)) return text;
  return lines.map((line, index) => line.slice(matches[index]?.[0].length ?? 0)).join('\n') + tail;
}

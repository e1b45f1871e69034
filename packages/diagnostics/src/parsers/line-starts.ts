/**
 * Turns offsets into 1-based line and column for one text (the line starts are found once). Lines end at `\n`, or at
 * each match of `lineBreak` (a global pattern) when a parser counts more kinds of line break.
 */
export function positionAt(
  text: string,
  lineBreak?: RegExp,
): (offset: number) => { line: number; column: number } {
  const starts = [0];
  if (lineBreak) for (const found of text.matchAll(lineBreak)) starts.push(found.index + found[0].length);
  else
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
      starts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

/** 1-based line numbers of sorted offsets in a `\n`-normalised text, in one pass. */
export function lineNumbersAt(text: string, sortedOffsets: readonly number[]): number[] {
  const result: number[] = [];
  let line = 1;
  let next = text.indexOf('\n');
  for (const offset of sortedOffsets) {
    while (next !== -1 && next < offset) {
      line += 1;
      next = text.indexOf('\n', next + 1);
    }
    result.push(line);
  }
  return result;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment), so `cofnig` is one step from `config`.
 * Only cells within `limit` of the diagonal are computed and any answer above `limit` comes back as `limit + 1`,
 * which keeps long names cheap.
 */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  const width = b.length + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: width }, (_, j) => (j <= limit ? j : over));
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(width).fill(over);
    if (i <= limit) current[0] = i;
    let rowBest = current[0]!;
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, beforePrevious[j - 2]! + 1);
      }
      current[j] = Math.min(best, over);
      rowBest = Math.min(rowBest, current[j]!);
    }
    if (rowBest > limit) return over;
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, over);
}

/**
 * Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right. Stops after
 * `limit` occurrences (1 finds the first, 2 is enough to tell unique from ambiguous).
 */
export function findOccurrences(haystack: string, needle: string, limit = Infinity): number[] {
  const starts: number[] = [];
  if (needle.length === 0) return starts;
  let from = 0;
  while (starts.length < limit) {
    const index = haystack.indexOf(needle, from);
    if (index === -1) break;
    starts.push(index);
    from = index + needle.length;
  }
  return starts;
}

/** Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right. */
export function* iterateOccurrences(haystack: string, needle: string): Generator<number> {
  if (needle.length === 0) return;
  let from = 0;
  for (;;) {
    const index = haystack.indexOf(needle, from);
    if (index === -1) return;
    yield index;
    from = index + needle.length;
  }
}

/**
 * Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right. Stops after
 * `limit` occurrences (1 finds the first, 2 is enough to tell unique from ambiguous).
 */
export function findOccurrences(haystack: string, needle: string, limit = Infinity): number[] {
  const starts: number[] = [];
  if (starts.length >= limit) return starts;
  for (const start of iterateOccurrences(haystack, needle)) {
    starts.push(start);
    if (starts.length >= limit) break;
  }
  return starts;
}

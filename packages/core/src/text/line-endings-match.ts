/** Occurrences of one line in both texts (the index is only meaningful while the count is 1). */
interface LineStats {
  originalCount: number;
  updatedCount: number;
  originalIndex: number;
  updatedIndex: number;
}

/** Longest strictly increasing subsequence of `values` (patience sorting); returns the positions in `values`. */
function longestIncreasing(values: readonly number[]): number[] {
  const tails: number[] = [];
  const previous = new Int32Array(values.length).fill(-1);
  values.forEach((value, position) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((values[tails[mid] as number] as number) < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[position] = tails[low - 1] as number;
    tails[low] = position;
  });
  const result: number[] = [];
  for (
    let at = tails.length > 0 ? (tails[tails.length - 1] as number) : -1;
    at !== -1;
    at = previous[at] as number
  ) {
    result.push(at);
  }
  return result.reverse();
}

/**
 * Pairs lines of `updated` with identical lines of `original` in order (patience diff, one level): lines unique in
 * both texts anchor the alignment, then equal neighbours are matched forward and backward from every anchor.
 * Returns, per updated line, the original index it matches, or -1 for a new or changed line. O(n log n).
 */
export function matchLines(original: readonly string[], updated: readonly string[]): Int32Array {
  const stats = new Map<string, LineStats>();
  const statsOf = (line: string): LineStats => {
    let entry = stats.get(line);
    if (!entry) {
      entry = { originalCount: 0, updatedCount: 0, originalIndex: -1, updatedIndex: -1 };
      stats.set(line, entry);
    }
    return entry;
  };
  original.forEach((line, index) => {
    const entry = statsOf(line);
    entry.originalCount++;
    entry.originalIndex = index;
  });
  updated.forEach((line, index) => {
    const entry = statsOf(line);
    entry.updatedCount++;
    entry.updatedIndex = index;
  });

  const candidates: { originalIndex: number; updatedIndex: number }[] = [];
  updated.forEach((line, index) => {
    const entry = stats.get(line) as LineStats;
    if (entry.originalCount === 1 && entry.updatedCount === 1) {
      candidates.push({ originalIndex: entry.originalIndex, updatedIndex: index });
    }
  });
  const anchors = longestIncreasing(candidates.map((candidate) => candidate.originalIndex)).map(
    (position) => candidates[position] as { originalIndex: number; updatedIndex: number },
  );
  anchors.push({ originalIndex: original.length, updatedIndex: updated.length });

  const matches = new Int32Array(updated.length).fill(-1);
  let originalFrom = 0;
  let updatedFrom = 0;
  for (const anchor of anchors) {
    let o = originalFrom;
    let u = updatedFrom;
    while (o < anchor.originalIndex && u < anchor.updatedIndex && original[o] === updated[u])
      matches[u++] = o++;
    let oEnd = anchor.originalIndex - 1;
    let uEnd = anchor.updatedIndex - 1;
    while (oEnd >= o && uEnd >= u && original[oEnd] === updated[uEnd]) matches[uEnd--] = oEnd--;
    if (anchor.updatedIndex < updated.length) matches[anchor.updatedIndex] = anchor.originalIndex;
    originalFrom = anchor.originalIndex + 1;
    updatedFrom = anchor.updatedIndex + 1;
  }
  return matches;
}

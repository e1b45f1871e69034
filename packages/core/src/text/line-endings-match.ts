/** How far (in lines, each side) the walk first looks for the end of a changed block, comparing pairs directly. */
const RESYNC_WINDOW = 32;
/** Lines after a candidate resync point that must match too, so a lone `}` or blank line does not fool the walk. */
const RESYNC_CONFIRM = 2;
/** A changed block longer than this (lines, each side) sends the rest of the texts to patience matching. */
const FAR_RESYNC_WINDOW = 8192;
/**
 * Beyond this many remaining lines (either side) patience matching is skipped: the rest stays unmatched and the
 * caller's cheap rule (pairing from the end) applies. Keeps a total rewrite of a huge file to a few seconds.
 */
const PATIENCE_MAX_LINES = 250_000;

function confirmed(original: readonly string[], updated: readonly string[], o: number, u: number): boolean {
  for (let step = 1; step <= RESYNC_CONFIRM; step++) {
    if (o + step >= original.length || u + step >= updated.length) return true;
    if (original[o + step] !== updated[u + step]) return false;
  }
  return true;
}

/** The nearest point after a mismatch at (o, u) where both texts run equal again, within a small window. */
function findNearResync(
  original: readonly string[],
  updated: readonly string[],
  o: number,
  u: number,
): [number, number] | undefined {
  for (let distance = 1; distance <= 2 * RESYNC_WINDOW; distance++) {
    const lowest = Math.max(0, distance - RESYNC_WINDOW);
    for (let skipOriginal = lowest; skipOriginal <= Math.min(distance, RESYNC_WINDOW); skipOriginal++) {
      const oi = o + skipOriginal;
      const ui = u + distance - skipOriginal;
      if (oi >= original.length || ui >= updated.length) continue;
      if (original[oi] === updated[ui] && confirmed(original, updated, oi, ui)) return [oi, ui];
    }
  }
  return undefined;
}

/** Like `findNearResync` within `window` lines, through an index of the window (linear in the window). */
function findResyncIndexed(
  original: readonly string[],
  updated: readonly string[],
  o: number,
  u: number,
  window: number,
): [number, number] | undefined {
  const positions = new Map<string, number[]>();
  for (let at = o; at < Math.min(original.length, o + window); at++) {
    const line = original[at] as string;
    const list = positions.get(line);
    if (list) list.push(at);
    else positions.set(line, [at]);
  }
  let best: [number, number] | undefined;
  for (let ui = u; ui < Math.min(updated.length, u + window); ui++) {
    if (best && ui - u >= best[0] - o + best[1] - u) break;
    for (const oi of positions.get(updated[ui] as string) ?? []) {
      if (best && oi - o + ui - u >= best[0] - o + best[1] - u) break;
      if (confirmed(original, updated, oi, ui)) {
        best = [oi, ui];
        break;
      }
    }
  }
  return best;
}

/** Resync for blocks too long for the near window: windows growing fourfold, so the cost follows the block size. */
function findFarResync(
  original: readonly string[],
  updated: readonly string[],
  o: number,
  u: number,
): [number, number] | undefined {
  for (let window = 4 * RESYNC_WINDOW; window <= FAR_RESYNC_WINDOW; window *= 4) {
    const resync = findResyncIndexed(original, updated, o, u, window);
    if (resync) return resync;
    if (o + window >= original.length && u + window >= updated.length) return undefined;
  }
  return undefined;
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

/** Index of each line that occurs once in `lines[from..]`; -1 for repeated lines. */
function uniqueIndex(lines: readonly string[], from: number): Map<string, number> {
  const index = new Map<string, number>();
  for (let at = from; at < lines.length; at++) {
    const line = lines[at] as string;
    const seen = index.get(line);
    if (seen === undefined) index.set(line, at);
    else if (seen !== -1) index.set(line, -1);
  }
  return index;
}

/**
 * Patience matching of `original[oFrom..]` and `updated[uFrom..]`: lines unique on both sides anchor the alignment
 * (longest increasing run), then equal neighbours are matched forward and backward from every anchor.
 */
function patienceMatch(
  original: readonly string[],
  updated: readonly string[],
  oFrom: number,
  uFrom: number,
  matches: Int32Array,
): void {
  const inOriginal = uniqueIndex(original, oFrom);
  const inUpdated = uniqueIndex(updated, uFrom);
  const candidateOriginal: number[] = [];
  const candidateUpdated: number[] = [];
  for (let u = uFrom; u < updated.length; u++) {
    const line = updated[u] as string;
    const o = inOriginal.get(line);
    // Blank lines are unique by accident too often to anchor anything.
    if (o !== undefined && o !== -1 && inUpdated.get(line) === u && line.trim() !== '') {
      candidateOriginal.push(o);
      candidateUpdated.push(u);
    }
  }
  const anchors = longestIncreasing(candidateOriginal).map(
    (position) => [candidateOriginal[position] as number, candidateUpdated[position] as number] as const,
  );
  anchors.push([original.length, updated.length]);

  let originalFrom = oFrom;
  let updatedFrom = uFrom;
  for (const [anchorOriginal, anchorUpdated] of anchors) {
    let o = originalFrom;
    let u = updatedFrom;
    while (o < anchorOriginal && u < anchorUpdated && original[o] === updated[u]) matches[u++] = o++;
    let oEnd = anchorOriginal - 1;
    let uEnd = anchorUpdated - 1;
    while (oEnd >= o && uEnd >= u && original[oEnd] === updated[uEnd]) matches[uEnd--] = oEnd--;
    if (anchorUpdated < updated.length) matches[anchorUpdated] = anchorOriginal;
    originalFrom = anchorOriginal + 1;
    updatedFrom = anchorUpdated + 1;
  }
}

/**
 * Pairs lines of `updated` with identical lines of `original`, in order. Walks both texts in step and, after a
 * changed block, looks for the nearest point where they run equal again (scattered edits cost linear time); a block
 * too large for the windows hands the rest to patience matching, which is O(n log n), never quadratic (and skipped
 * for very large remainders).
 * Returns, per updated line, the original index it matches, or -1 for a new or changed line.
 */
export function matchLines(original: readonly string[], updated: readonly string[]): Int32Array {
  const matches = new Int32Array(updated.length).fill(-1);
  let o = 0;
  let u = 0;
  while (o < original.length && u < updated.length) {
    if (original[o] === updated[u]) {
      matches[u++] = o++;
      continue;
    }
    const resync = findNearResync(original, updated, o, u) ?? findFarResync(original, updated, o, u);
    if (!resync) {
      if (original.length - o <= PATIENCE_MAX_LINES && updated.length - u <= PATIENCE_MAX_LINES) {
        patienceMatch(original, updated, o, u, matches);
      }
      break;
    }
    [o, u] = resync;
  }
  return matches;
}

import { jsdiff } from '@kimi-tools/core/toolkit';

/** A change one side made to the base: base lines `[start, end)` replaced by `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/** The result of {@link mergeThreeWay}: the merged text and how many conflicts it marks. */
export interface MergedText {
  text: string;
  conflicts: number;
}

/** The markers around a conflict: the checkpoint's lines first, then the user's. */
export function conflictMarkers(checkpointId: string): { start: string; middle: string; end: string } {
  return { start: `<<<<<<< checkpoint ${checkpointId}`, middle: '=======', end: ">>>>>>> user's version" };
}

/** The hunks that turn `base` into `side`, in base order. */
function hunksOf(base: string[], side: string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const part of jsdiff().diffArrays(base, side)) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = null;
      at += part.count ?? part.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  if (open) hunks.push(open);
  return hunks;
}

/** Whether two hunks touch the same base lines (two insertions at one place count). */
function overlap(a: Hunk, b: Hunk): boolean {
  if (a.start === b.start) return true;
  return a.start < b.end && b.start < a.end;
}

/** `base[start, end)` with the hunks (all within it) applied. */
function applyWithin(base: string[], start: number, end: number, hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const hunk of hunks) {
    out.push(...base.slice(at, hunk.start), ...hunk.lines);
    at = hunk.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

/**
 * A line-based three-way merge of two versions that both started from `base`: every change only one side made is
 * taken; where both changed the same lines differently, the two versions of those lines are put between conflict
 * markers (`ours` first, labelled as the checkpoint `checkpointId`, then `theirs`, the user's). The texts are
 * `\n`-normalised.
 */
export function mergeThreeWay(base: string, ours: string, theirs: string, checkpointId: string): MergedText {
  const baseLines = base.split('\n');
  const ourHunks = hunksOf(baseLines, ours.split('\n'));
  const theirHunks = hunksOf(baseLines, theirs.split('\n'));
  const markers = conflictMarkers(checkpointId);
  const out: string[] = [];
  let conflicts = 0;
  let at = 0;
  let i = 0;
  let j = 0;
  while (i < ourHunks.length || j < theirHunks.length) {
    // A group starts with the hunk that starts first and takes every hunk of either side overlapping it.
    const mine: Hunk[] = [];
    const yours: Hunk[] = [];
    const first =
      j >= theirHunks.length || (i < ourHunks.length && ourHunks[i]!.start <= theirHunks[j]!.start)
        ? ourHunks[i++]!
        : theirHunks[j++]!;
    (ourHunks.includes(first) ? mine : yours).push(first);
    let start = first.start;
    let end = first.end;
    for (let grew = true; grew;) {
      grew = false;
      const span = { start, end, lines: [] };
      while (i < ourHunks.length && overlap(span, ourHunks[i]!)) {
        mine.push(ourHunks[i]!);
        end = Math.max(end, ourHunks[i++]!.end);
        grew = true;
      }
      while (j < theirHunks.length && overlap({ start, end, lines: [] }, theirHunks[j]!)) {
        yours.push(theirHunks[j]!);
        end = Math.max(end, theirHunks[j++]!.end);
        grew = true;
      }
      start = Math.min(start, ...mine.map((hunk) => hunk.start), ...yours.map((hunk) => hunk.start));
    }
    out.push(...baseLines.slice(at, start));
    const ourLines = applyWithin(baseLines, start, end, mine);
    const theirLines = applyWithin(baseLines, start, end, yours);
    if (yours.length === 0) out.push(...ourLines);
    else if (mine.length === 0) out.push(...theirLines);
    else if (ourLines.join('\n') === theirLines.join('\n')) out.push(...ourLines);
    else {
      conflicts += 1;
      out.push(markers.start, ...ourLines, markers.middle, ...theirLines, markers.end);
    }
    at = end;
  }
  out.push(...baseLines.slice(at));
  return { text: out.join('\n'), conflicts };
}

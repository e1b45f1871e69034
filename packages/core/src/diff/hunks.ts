import type { DiffDisplayBlock } from '../result/tool-result.js';
import type { DiffLines } from './diff-lines.js';
import type { LineRun } from './line-runs.js';
import { changesOfRuns, type RunChange } from './run-changes.js';

/**
 * One group of nearby changes with its context: old lines `[oldFrom, oldTo)` became new lines `[newFrom, newTo)`
 * (0-based). Groups of one diff never share a line, so each can be applied or left out alone.
 */
export type HunkRange = RunChange;

/**
 * The groups of nearby changes, with `context` unchanged lines around each. Changes at most `2 * context` unchanged
 * lines apart share a group (their context would touch or overlap).
 */
export function hunkRanges(
  oldCount: number,
  newCount: number,
  runs: readonly LineRun[],
  context: number,
): HunkRange[] {
  const changes = changesOfRuns(runs);
  const ranges: HunkRange[] = [];
  let index = 0;
  while (index < changes.length) {
    const first = changes[index]!;
    let last = first;
    while (index + 1 < changes.length && changes[index + 1]!.oldFrom - last.oldTo <= 2 * context) {
      index++;
      last = changes[index]!;
    }
    index++;
    // Context lines are unchanged, so the same count is taken on both sides.
    const before = Math.min(context, first.oldFrom, first.newFrom);
    const after = Math.min(context, oldCount - last.oldTo, newCount - last.newTo);
    ranges.push({
      oldFrom: first.oldFrom - before,
      oldTo: last.oldTo + after,
      newFrom: first.newFrom - before,
      newTo: last.newTo + after,
    });
  }
  return ranges;
}

/**
 * One block per range. Starts are 1-based. A side with no lines (an insertion into an empty file, a deletion of
 * everything) starts where its first line would be: 1 for an empty file, else the number of the line that follows
 * the gap.
 */
export function buildHunkBlocks(
  path: string,
  oldLines: DiffLines,
  newLines: DiffLines,
  ranges: readonly HunkRange[],
): DiffDisplayBlock[] {
  return ranges.map((range) => ({
    type: 'diff',
    path,
    oldText: oldLines.shown(range.oldFrom, range.oldTo),
    newText: newLines.shown(range.newFrom, range.newTo),
    oldStart: range.oldFrom + 1,
    newStart: range.newFrom + 1,
    isSummary: false,
  }));
}

/** A block side as its lines; `count` tells an empty side from one empty line (both read `''`). */
function sideLines(text: string, count: number): string[] {
  return count === 0 ? [] : text.split('\n');
}

/**
 * The lines of each range marked as unified-diff lines (` ` context, `-` removed, `+` added), in the order the runs
 * give them, with the text its block shows (long lines cut). `blocks[i]` is the block of `ranges[i]`. One pass over
 * the runs for all ranges.
 */
export function hunkLineLists(
  runs: readonly LineRun[],
  ranges: readonly HunkRange[],
  blocks: readonly DiffDisplayBlock[],
): string[][] {
  const lists: string[][] = [];
  let runIndex = 0;
  // Where the current run starts, on both sides.
  let oldAt = 0;
  let newAt = 0;
  ranges.forEach((range, index) => {
    const block = blocks[index]!;
    const oldSide = sideLines(block.oldText, range.oldTo - range.oldFrom);
    const newSide = sideLines(block.newText, range.newTo - range.newFrom);
    const lines: string[] = [];
    // Skip the runs that end before the range.
    while (runIndex < runs.length) {
      const run = runs[runIndex]!;
      const oldEnd = oldAt + (run.kind === 'added' ? 0 : run.count);
      const newEnd = newAt + (run.kind === 'removed' ? 0 : run.count);
      if (oldEnd > range.oldFrom || newEnd > range.newFrom) break;
      oldAt = oldEnd;
      newAt = newEnd;
      runIndex++;
    }
    let oldLine = range.oldFrom;
    let newLine = range.newFrom;
    while (oldLine < range.oldTo || newLine < range.newTo) {
      const run = runs[runIndex]!;
      const oldEnd = oldAt + (run.kind === 'added' ? 0 : run.count);
      const newEnd = newAt + (run.kind === 'removed' ? 0 : run.count);
      if (run.kind === 'equal') {
        for (; oldLine < Math.min(oldEnd, range.oldTo); oldLine++, newLine++) {
          lines.push(` ${oldSide[oldLine - range.oldFrom]!}`);
        }
      } else if (run.kind === 'removed') {
        for (; oldLine < oldEnd; oldLine++) lines.push(`-${oldSide[oldLine - range.oldFrom]!}`);
      } else {
        for (; newLine < newEnd; newLine++) lines.push(`+${newSide[newLine - range.newFrom]!}`);
      }
      // A run the range ends inside (the context after the last change) is where the next range starts looking.
      if (oldLine >= range.oldTo && newLine >= range.newTo && (oldLine < oldEnd || newLine < newEnd)) break;
      oldAt = oldEnd;
      newAt = newEnd;
      runIndex++;
    }
    lists.push(lines);
  });
  return lists;
}

import type { DiffDisplayBlock } from '../result/tool-result.js';
import type { DiffLines } from './diff-lines.js';
import type { LineRun } from './line-runs.js';
import { changesOfRuns } from './run-changes.js';

/**
 * One block per group of nearby changes, with `context` unchanged lines around each group. Changes at most
 * `2 * context` unchanged lines apart share a block (their context would touch or overlap).
 *
 * Starts are 1-based. A side with no lines (an insertion into an empty file, a deletion of everything) starts
 * where its first line would be: 1 for an empty file, else the number of the line that follows the gap.
 */
export function buildHunkBlocks(
  path: string,
  oldLines: DiffLines,
  newLines: DiffLines,
  runs: LineRun[],
  context: number,
): DiffDisplayBlock[] {
  const changes = changesOfRuns(runs);
  const blocks: DiffDisplayBlock[] = [];
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
    const after = Math.min(context, oldLines.count - last.oldTo, newLines.count - last.newTo);
    const oldFrom = first.oldFrom - before;
    const newFrom = first.newFrom - before;
    blocks.push({
      type: 'diff',
      path,
      oldText: oldLines.shown(oldFrom, last.oldTo + after),
      newText: newLines.shown(newFrom, last.newTo + after),
      oldStart: oldFrom + 1,
      newStart: newFrom + 1,
      isSummary: false,
    });
  }
  return blocks;
}

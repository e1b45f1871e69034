import { DIFF_MAX_LINES } from './build-diff-blocks.js';
import { LineDiff } from './line-diff.js';
import type { LineRun } from './line-runs.js';
import { changesOfRuns } from './run-changes.js';

/**
 * One changed place between two texts, in 1-based lines: `old` lines `[oldFrom, oldFrom + oldCount)` became `new`
 * lines `[newFrom, newFrom + newCount)`. A pure insertion has `oldCount` 0, a pure deletion `newCount` 0 (its `from`
 * is then the line the removed lines stood before).
 */
export interface ChangedLines {
  oldFrom: number;
  oldCount: number;
  newFrom: number;
  newCount: number;
}

/**
 * The changed places between two `\n`-normalised texts, in order. The line search runs on the changed middle between
 * the lines the texts share at their start and end; when that middle holds more than {@link DIFF_MAX_LINES} lines on
 * a side (a rewrite of a big file: the approval shows it as a summary too) or the search runs out of `budgetMs`, the
 * whole middle is one change (coarser, never wrong). Given a {@link LineDiff} of the same texts instead, its search
 * is the one used (made once for all who need it).
 */
export function changedLines(oldText: string, newText: string, budgetMs: number): ChangedLines[];
export function changedLines(diff: LineDiff): ChangedLines[];
export function changedLines(diffOrOld: LineDiff | string, newText = '', budgetMs = 0): ChangedLines[] {
  const diff = typeof diffOrOld === 'string' ? new LineDiff(diffOrOld, newText, budgetMs) : diffOrOld;
  const { oldLines, newLines, shared } = diff;
  const middleLines = Math.max(oldLines.count, newLines.count) - shared.prefix - shared.suffix;
  const runs = (middleLines <= DIFF_MAX_LINES ? diff.runs : undefined) ?? coarseRuns(diff);
  return changesOfRuns(runs).map((change) => ({
    oldFrom: change.oldFrom + 1,
    oldCount: change.oldTo - change.oldFrom,
    newFrom: change.newFrom + 1,
    newCount: change.newTo - change.newFrom,
  }));
}

/** The shared first lines, one change for the middle, the shared last lines. */
function coarseRuns({ oldLines, newLines, shared }: LineDiff): LineRun[] {
  const { prefix, suffix } = shared;
  const runs: LineRun[] = [
    { kind: 'equal', count: prefix },
    { kind: 'removed', count: oldLines.count - prefix - suffix },
    { kind: 'added', count: newLines.count - prefix - suffix },
    { kind: 'equal', count: suffix },
  ];
  return runs.filter((run) => run.count > 0);
}

import { computeLineRuns } from './line-runs.js';
import { changesOfRuns } from './run-changes.js';
import { splitDiffLines } from './diff-lines.js';

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
 * The changed places between two `\n`-normalised texts, in order. When the line search runs out of `budgetMs`, the
 * whole middle between the common first and last lines is one change (coarser, never wrong).
 */
export function changedLines(oldText: string, newText: string, budgetMs: number): ChangedLines[] {
  const oldKeys = splitDiffLines(oldText).keys;
  const newKeys = splitDiffLines(newText).keys;
  const runs = computeLineRuns(oldKeys, newKeys, budgetMs) ?? coarseRuns(oldKeys, newKeys);
  return changesOfRuns(runs).map((change) => ({
    oldFrom: change.oldFrom + 1,
    oldCount: change.oldTo - change.oldFrom,
    newFrom: change.newFrom + 1,
    newCount: change.newTo - change.newFrom,
  }));
}

/** Common first lines, one change for the middle, common last lines. */
function coarseRuns(oldKeys: string[], newKeys: string[]): ReturnType<typeof computeLineRuns> & object {
  let prefix = 0;
  while (prefix < oldKeys.length && prefix < newKeys.length && oldKeys[prefix] === newKeys[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < oldKeys.length - prefix &&
    suffix < newKeys.length - prefix &&
    oldKeys[oldKeys.length - 1 - suffix] === newKeys[newKeys.length - 1 - suffix]
  )
    suffix++;
  return [
    { kind: 'equal', count: prefix },
    { kind: 'removed', count: oldKeys.length - prefix - suffix },
    { kind: 'added', count: newKeys.length - prefix - suffix },
    { kind: 'equal', count: suffix },
  ].filter((run) => run.count > 0) as ReturnType<typeof computeLineRuns> & object;
}

import type { LineRun } from './line-runs.js';

/** A maximal stretch of changed lines: old lines [oldFrom, oldTo) became new lines [newFrom, newTo) (0-based). */
export interface RunChange {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

/** The changed stretches of a line diff, in order: consecutive removed and added runs form one change. */
export function changesOfRuns(runs: readonly LineRun[]): RunChange[] {
  const changes: RunChange[] = [];
  let oldAt = 0;
  let newAt = 0;
  let open: RunChange | undefined;
  for (const run of runs) {
    if (run.kind === 'equal') {
      open = undefined;
      oldAt += run.count;
      newAt += run.count;
      continue;
    }
    if (open === undefined) {
      open = { oldFrom: oldAt, oldTo: oldAt, newFrom: newAt, newTo: newAt };
      changes.push(open);
    }
    if (run.kind === 'removed') oldAt += run.count;
    else newAt += run.count;
    open.oldTo = oldAt;
    open.newTo = newAt;
  }
  return changes;
}

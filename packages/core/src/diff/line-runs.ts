import { diffArrays } from 'diff';

/** A run of consecutive lines that are kept, removed from the old text, or added in the new one. */
export interface LineRun {
  kind: 'equal' | 'removed' | 'added';
  count: number;
}

// How many line comparisons run between two looks at the clock: often enough to stop within a millisecond or so,
// rarely enough that reading the clock costs nothing measurable.
const COMPARISONS_PER_CLOCK_CHECK = 4096;

class DiffDeadlineReached extends Error {}

/**
 * The line runs turning `oldKeys` into `newKeys`, or `undefined` when the search for them takes longer than
 * `budgetMs`. Common leading and trailing lines are set aside first, in one linear pass, so a local edit of a big
 * text only searches the changed middle; the budget bounds that search.
 */
export function computeLineRuns(
  oldKeys: string[],
  newKeys: string[],
  budgetMs: number,
): LineRun[] | undefined {
  const oldLength = oldKeys.length;
  const newLength = newKeys.length;
  let prefix = 0;
  while (prefix < oldLength && prefix < newLength && oldKeys[prefix] === newKeys[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < oldLength - prefix &&
    suffix < newLength - prefix &&
    oldKeys[oldLength - 1 - suffix] === newKeys[newLength - 1 - suffix]
  ) {
    suffix++;
  }

  const oldMiddle = oldKeys.slice(prefix, oldLength - suffix);
  const newMiddle = newKeys.slice(prefix, newLength - suffix);
  const middle = diffMiddle(oldMiddle, newMiddle, performance.now() + budgetMs);
  if (middle === undefined) return undefined;

  const runs: LineRun[] = [];
  if (prefix > 0) runs.push({ kind: 'equal', count: prefix });
  runs.push(...middle);
  if (suffix > 0) runs.push({ kind: 'equal', count: suffix });
  return runs;
}

function diffMiddle(oldMiddle: string[], newMiddle: string[], deadline: number): LineRun[] | undefined {
  // One side empty: a pure insertion or deletion, no search needed.
  if (oldMiddle.length === 0 || newMiddle.length === 0) {
    const runs: LineRun[] = [];
    if (oldMiddle.length > 0) runs.push({ kind: 'removed', count: oldMiddle.length });
    if (newMiddle.length > 0) runs.push({ kind: 'added', count: newMiddle.length });
    return runs;
  }

  const remaining = deadline - performance.now();
  if (remaining <= 0) return undefined;

  // jsdiff's own `timeout` is only checked between edit distances; the comparator also looks at the clock, so one
  // long step of the search cannot overrun the deadline either.
  let comparisons = 0;
  const comparator = (left: string, right: string): boolean => {
    comparisons++;
    if (comparisons % COMPARISONS_PER_CLOCK_CHECK === 0 && performance.now() > deadline) {
      throw new DiffDeadlineReached();
    }
    return left === right;
  };

  let changes;
  try {
    changes = diffArrays(oldMiddle, newMiddle, { comparator, timeout: Math.ceil(remaining) });
  } catch (error) {
    if (error instanceof DiffDeadlineReached) return undefined;
    throw error;
  }
  if (changes === undefined) return undefined;
  return changes.map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'equal',
    count: change.count,
  }));
}

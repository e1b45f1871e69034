import { jsdiff } from '../fs/load-on-use.js';

/** A run of consecutive lines that are kept, removed from the old text, or added in the new one. */
export interface LineRun {
  kind: 'equal' | 'removed' | 'added';
  count: number;
}

// How many line comparisons run between two looks at the clock: often enough to stop well within a millisecond,
// rarely enough that reading the clock costs nothing measurable.
const COMPARISONS_PER_CLOCK_CHECK = 1024;

class DiffDeadlineReached extends Error {}

/** Filled in when a search runs: when it started and ended (`performance.now()` values), and whether it gave up. */
export interface SearchClock {
  startedAt?: number;
  endedAt?: number;
  timedOut?: boolean;
}

/**
 * The line runs turning `oldKeys` into `newKeys`, or `undefined` when the search for them takes longer than
 * `budgetMs`. Before the search, in linear time: common leading and trailing lines are set aside (a local edit of a
 * big text only searches the changed middle), and lines found on one side only are set aside too (they can only be
 * removed or added), so two very different texts leave little or nothing to search. The budget bounds the search.
 */
export function computeLineRuns(
  oldKeys: string[],
  newKeys: string[],
  budgetMs: number,
  clock: SearchClock = {},
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

  const [oldIds, newIds] = toLineIds(
    oldKeys.slice(prefix, oldLength - suffix),
    newKeys.slice(prefix, newLength - suffix),
  );
  const matches = matchMiddle(oldIds, newIds, budgetMs, clock);
  if (matches === undefined) return undefined;

  const runs = new RunList();
  runs.push('equal', prefix);
  let oldAt = 0;
  let newAt = 0;
  for (const [oldIndex, newIndex] of matches) {
    runs.push('removed', oldIndex - oldAt);
    runs.push('added', newIndex - newAt);
    runs.push('equal', 1);
    oldAt = oldIndex + 1;
    newAt = newIndex + 1;
  }
  runs.push('removed', oldIds.length - oldAt);
  runs.push('added', newIds.length - newAt);
  runs.push('equal', suffix);
  return runs.runs;
}

/** Collects runs, merging a run into the previous one of the same kind and dropping empty ones. */
class RunList {
  readonly runs: LineRun[] = [];

  push(kind: LineRun['kind'], count: number): void {
    if (count <= 0) return;
    const last = this.runs[this.runs.length - 1];
    if (last?.kind === kind) last.count += count;
    else this.runs.push({ kind, count });
  }
}

/** Numbers the distinct lines, so the search compares numbers in constant time, however long the lines are. */
function toLineIds(oldLines: string[], newLines: string[]): [number[], number[]] {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  return [oldLines.map(idOf), newLines.map(idOf)];
}

/** Indexes of the lines of `ids` that also occur in `other`. */
function indexesFoundIn(ids: number[], other: number[]): number[] {
  const present = new Set(other);
  const indexes: number[] = [];
  for (let index = 0; index < ids.length; index++) if (present.has(ids[index]!)) indexes.push(index);
  return indexes;
}

/**
 * The pairs (old index, new index) of lines kept unchanged, in increasing order, or `undefined` when the search
 * takes longer than `budgetMs`.
 */
function matchMiddle(
  oldIds: number[],
  newIds: number[],
  budgetMs: number,
  clock: SearchClock,
): Array<[number, number]> | undefined {
  const oldCandidates = indexesFoundIn(oldIds, newIds);
  const newCandidates = indexesFoundIn(newIds, oldIds);
  if (oldCandidates.length === 0 || newCandidates.length === 0) return [];

  clock.startedAt = performance.now();
  const matches = searchMatches(oldIds, newIds, oldCandidates, newCandidates, clock.startedAt + budgetMs);
  clock.endedAt = performance.now();
  clock.timedOut = matches === undefined;
  return matches;
}

/** The Myers search (jsdiff) over the candidate lines, stopped at `deadline` (a `performance.now()` value). */
function searchMatches(
  oldIds: number[],
  newIds: number[],
  oldCandidates: number[],
  newCandidates: number[],
  deadline: number,
): Array<[number, number]> | undefined {
  const remaining = deadline - performance.now();
  if (remaining <= 0) return undefined;

  // jsdiff's own `timeout` is only checked between edit distances; the comparator also looks at the clock, so one
  // long step of the search cannot overrun the deadline either.
  let comparisons = 0;
  const comparator = (left: number, right: number): boolean => {
    comparisons++;
    if (comparisons % COMPARISONS_PER_CLOCK_CHECK === 0 && performance.now() > deadline) {
      throw new DiffDeadlineReached();
    }
    return left === right;
  };

  let changes;
  try {
    changes = jsdiff().diffArrays(
      oldCandidates.map((index) => oldIds[index]!),
      newCandidates.map((index) => newIds[index]!),
      // jsdiff compares whole milliseconds of Date.now(), so it may run up to 1 ms past its timeout: ask 1 ms less.
      { comparator, timeout: Math.max(0, Math.floor(remaining) - 1) },
    );
  } catch (error) {
    if (error instanceof DiffDeadlineReached) return undefined;
    throw error;
  }
  if (changes === undefined) return undefined;

  const matches: Array<[number, number]> = [];
  let oldAt = 0;
  let newAt = 0;
  for (const change of changes) {
    if (change.added) newAt += change.count;
    else if (change.removed) oldAt += change.count;
    else {
      for (let step = 0; step < change.count; step++) {
        matches.push([oldCandidates[oldAt + step]!, newCandidates[newAt + step]!]);
      }
      oldAt += change.count;
      newAt += change.count;
    }
  }
  return matches;
}

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

  const middle = middleCandidates(oldKeys, newKeys, prefix, oldLength - suffix, newLength - suffix);
  const matches = matchMiddle(middle, budgetMs, clock);
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
  runs.push('removed', middle.oldLength - oldAt);
  runs.push('added', middle.newLength - newAt);
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

/**
 * The middle lines (old `[from, oldTo)`, new `[from, newTo)`) that occur on both sides: their indexes in the middle,
 * and their numbers (equal lines, equal numbers), so the search compares numbers in constant time, however long
 * the lines are.
 */
interface MiddleCandidates {
  oldLength: number;
  newLength: number;
  oldIndexes: number[];
  oldIds: number[];
  newIndexes: number[];
  newIds: number[];
}

/**
 * A number every equal line gets, from its length and about sixteen of its characters, evenly spread: cheap however
 * long the line, and different for nearly all different lines (fewer characters met too often in code and prose,
 * where the same characters stand at the same places). Lines whose numbers meet none of the other side's cannot be
 * on both sides.
 */
function lineSketch(line: string): number {
  const length = line.length;
  let sketch = Math.imul(length, 0x9e3779b1);
  const step = (length >> 4) + 1;
  for (let at = length - 1; at >= 0; at -= step) sketch = Math.imul(sketch ^ line.charCodeAt(at), 0x85ebca6b);
  return sketch ^ (sketch >>> 15);
}

/** The table slot of every line of `keys[from, to)`, and a table marking the slots taken. */
function sketchSlots(
  keys: string[],
  from: number,
  to: number,
  mask: number,
): { slots: Int32Array; taken: Uint8Array } {
  const slots = new Int32Array(to - from);
  const taken = new Uint8Array(mask + 1);
  for (let index = from; index < to; index++) {
    const slot = lineSketch(keys[index]!) & mask;
    slots[index - from] = slot;
    taken[slot] = 1;
  }
  return { slots, taken };
}

// Hashing whole lines into a map is what costs here: numbering both sides of two different 5 MB texts (60k lines of
// 80 characters) and building a set of each took most of the 70 ms of `changedLines` on them. So every line first
// gets a slot in a table from a cheap sketch (equal lines, equal slots), and only lines whose slot the other side
// also took are hashed: a line that finds its slot empty on the other side cannot be there. Two unrelated texts then
// hash about one line in twenty (`changedLines` on them: about 40 ms, most of it splitting the texts); similar texts
// hash what they always did. Then only old lines are numbered; a new line is only looked up, since a new line
// the old side lacks can only be added and needs no number.
function middleCandidates(
  oldKeys: string[],
  newKeys: string[],
  from: number,
  oldTo: number,
  newTo: number,
): MiddleCandidates {
  const middle: MiddleCandidates = {
    oldLength: oldTo - from,
    newLength: newTo - from,
    oldIndexes: [],
    oldIds: [],
    newIndexes: [],
    newIds: [],
  };
  if (middle.oldLength === 0 || middle.newLength === 0) return middle;
  // About 16 slots per line of the larger side, so few different lines share one.
  const mask = 2 ** Math.ceil(Math.log2(Math.max(middle.oldLength, middle.newLength) * 16)) - 1;
  const oldSlots = sketchSlots(oldKeys, from, oldTo, mask);
  const newSlots = sketchSlots(newKeys, from, newTo, mask);

  const ids = new Map<string, number>();
  const oldAll = new Int32Array(middle.oldLength).fill(-1);
  for (let index = 0; index < middle.oldLength; index++) {
    if (newSlots.taken[oldSlots.slots[index]!] === 0) continue;
    const line = oldKeys[from + index]!;
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    oldAll[index] = id;
  }
  if (ids.size === 0) return middle;
  const foundInNew = new Uint8Array(ids.size);
  for (let index = 0; index < middle.newLength; index++) {
    if (oldSlots.taken[newSlots.slots[index]!] === 0) continue;
    const id = ids.get(newKeys[from + index]!);
    if (id === undefined) continue;
    foundInNew[id] = 1;
    middle.newIndexes.push(index);
    middle.newIds.push(id);
  }
  if (middle.newIndexes.length === 0) return middle;
  for (let index = 0; index < middle.oldLength; index++) {
    const id = oldAll[index]!;
    if (id < 0 || foundInNew[id] === 0) continue;
    middle.oldIndexes.push(index);
    middle.oldIds.push(id);
  }
  return middle;
}

/**
 * The pairs (old index, new index) of middle lines kept unchanged, in increasing order, or `undefined` when the
 * search takes longer than `budgetMs`.
 */
function matchMiddle(
  middle: MiddleCandidates,
  budgetMs: number,
  clock: SearchClock,
): Array<[number, number]> | undefined {
  if (middle.oldIndexes.length === 0 || middle.newIndexes.length === 0) return [];

  clock.startedAt = performance.now();
  const matches = searchMatches(middle, clock.startedAt + budgetMs);
  clock.endedAt = performance.now();
  clock.timedOut = matches === undefined;
  return matches;
}

/** The Myers search (jsdiff) over the candidate lines, stopped at `deadline` (a `performance.now()` value). */
function searchMatches(
  { oldIndexes, oldIds, newIndexes, newIds }: MiddleCandidates,
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
      oldIds,
      newIds,
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
        matches.push([oldIndexes[oldAt + step]!, newIndexes[newAt + step]!]);
      }
      oldAt += change.count;
      newAt += change.count;
    }
  }
  return matches;
}

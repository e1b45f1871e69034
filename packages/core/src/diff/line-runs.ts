import { jsdiff } from '../fs/load-on-use.js';
import { sharedEdges, type DiffLines, type SharedEdges } from './diff-lines.js';
import { monotonicMs } from '../runtime/monotonic-ms.js';

/** A run of consecutive lines that are kept, removed from the old text, or added in the new one. */
export interface LineRun {
  kind: 'equal' | 'removed' | 'added';
  count: number;
}

// How many line comparisons run between two looks at the clock: often enough to stop well within a millisecond,
// rarely enough that reading the clock costs nothing measurable.
const COMPARISONS_PER_CLOCK_CHECK = 1024;

class DiffDeadlineReached extends Error {}

/** Filled in when a search runs: when it started and ended (`monotonicMs()` values), and whether it gave up. */
export interface SearchClock {
  startedAt?: number;
  endedAt?: number;
  timedOut?: boolean;
}

/**
 * The line runs turning `oldLines` into `newLines`, or `undefined` when the search for them takes longer than
 * `budgetMs`. Before the search, in linear time: common leading and trailing lines are set aside (a local edit of a
 * big text only searches the changed middle; `edges`, when the caller has them), and lines found on one side only are
 * set aside too (they can only be removed or added), so two very different texts leave little or nothing to search.
 * The budget bounds the search.
 */
export function computeLineRuns(
  oldLines: DiffLines,
  newLines: DiffLines,
  budgetMs: number,
  clock: SearchClock = {},
  edges: SharedEdges = sharedEdges(oldLines, newLines),
): LineRun[] | undefined {
  const oldLength = oldLines.count;
  const newLength = newLines.count;
  const { prefix, suffix } = edges;

  const middle = middleCandidates(oldLines, newLines, prefix, oldLength - suffix, newLength - suffix);
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
 * Two table slots of every line of `lines[from, to)` (from its sketch), and a table marking the slots taken. A line
 * of the other side can only be here when both its slots are taken: with two slots, about one unrelated line in
 * seventy passes, against one in sixteen with one slot, and each that passes costs a hash of the whole line.
 */
function sketchSlots(lines: DiffLines, from: number, to: number, mask: number): SketchSlots {
  const first = new Int32Array(to - from);
  const second = new Int32Array(to - from);
  // One bit a slot: the table stays in the processor's cache (128 KB for 60k lines).
  const taken = new Int32Array((mask >>> 5) + 1);
  for (let index = from; index < to; index++) {
    const sketch = lines.sketch(index);
    const one = sketch & mask;
    const two = Math.imul(sketch ^ (sketch >>> 13), 0x5bd1e995) & mask;
    first[index - from] = one;
    second[index - from] = two;
    taken[one >>> 5]! |= 1 << (one & 31);
    taken[two >>> 5]! |= 1 << (two & 31);
  }
  return { first, second, taken };
}

interface SketchSlots {
  first: Int32Array;
  second: Int32Array;
  taken: Int32Array;
}

function isTaken(taken: Int32Array, slot: number): boolean {
  return (taken[slot >>> 5]! & (1 << (slot & 31))) !== 0;
}

/** Whether line `index` of one side may be on the side whose slots are `other`. */
function mayBeIn(slots: SketchSlots, index: number, other: SketchSlots): boolean {
  return isTaken(other.taken, slots.first[index]!) && isTaken(other.taken, slots.second[index]!);
}

// Hashing whole lines into a map is what costs here: numbering both sides of two different 5 MB texts (60k lines of
// 80 characters) and building a set of each took most of the 70 ms of `changedLines` on them. So every line first
// gets two slots in a table from a cheap sketch (equal lines, equal slots), and only lines whose slots the other side
// also took are cut out of the text and hashed: a line that finds a slot empty on the other side cannot be there.
// Two unrelated texts then hash about one line in seventy; similar texts hash what they always did. Then only old
// lines are numbered; a new line is only looked up, since a new line the old side lacks can only be added and needs
// no number.
function middleCandidates(
  oldLines: DiffLines,
  newLines: DiffLines,
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
  const oldSlots = sketchSlots(oldLines, from, oldTo, mask);
  const newSlots = sketchSlots(newLines, from, newTo, mask);

  const ids = new Map<string, number>();
  const oldAll = new Int32Array(middle.oldLength).fill(-1);
  for (let index = 0; index < middle.oldLength; index++) {
    if (!mayBeIn(oldSlots, index, newSlots)) continue;
    const line = oldLines.key(from + index);
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
    if (!mayBeIn(newSlots, index, oldSlots)) continue;
    const id = ids.get(newLines.key(from + index));
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

  clock.startedAt = monotonicMs();
  const matches = searchMatches(middle, clock.startedAt + budgetMs);
  clock.endedAt = monotonicMs();
  clock.timedOut = matches === undefined;
  return matches;
}

/** The Myers search (jsdiff) over the candidate lines, stopped at `deadline` (a `monotonicMs()` value). */
function searchMatches(
  { oldIndexes, oldIds, newIndexes, newIds }: MiddleCandidates,
  deadline: number,
): Array<[number, number]> | undefined {
  const remaining = deadline - monotonicMs();
  if (remaining <= 0) return undefined;

  // jsdiff's own `timeout` is only checked between edit distances; the comparator also looks at the clock, so one
  // long step of the search cannot overrun the deadline either.
  let comparisons = 0;
  const comparator = (left: number, right: number): boolean => {
    comparisons++;
    if (comparisons % COMPARISONS_PER_CLOCK_CHECK === 0 && monotonicMs() > deadline) {
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

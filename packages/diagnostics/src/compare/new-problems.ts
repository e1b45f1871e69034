import type { Problem } from '../problem.js';
import { lineMapping } from './line-mapping.js';

/** The problems after a change, split into those it introduced and those that were there before. */
export interface ProblemComparison {
  /** Introduced by the change. */
  added: Problem[];
  /** There before the change (maybe moved). */
  kept: Problem[];
  /** How many problems before the change are gone after it. */
  fixed: number;
}

/**
 * Splits the problems after a change (`after`) by whether the change introduced them, given the problems before it
 * (`before`) and both texts. A problem after the change is old when one before it has the same key at the same
 * place once mapped through the change; failing that, when one before it has the same key anywhere (a parser's
 * recovery moves an old error when lines around it change). Problems outside the changed lines take the leftover old
 * ones first, so that of two identical problems it is the one on the changed lines that is reported.
 */
export function compareProblems(
  before: readonly Problem[],
  after: readonly Problem[],
  beforeText: string,
  afterText: string,
): ProblemComparison {
  // Most checks find no problem on one side: then nothing needs mapping.
  if (after.length === 0) return { added: [], kept: [], fixed: before.length };
  if (before.length === 0) return { added: [...after], kept: [], fixed: 0 };
  const mapping = lineMapping(beforeText, afterText);
  // The old problems not matched yet, by key.
  const unmatched = new Map<string, Problem[]>();
  for (const old of before) {
    const same = unmatched.get(old.key);
    if (same) same.push(old);
    else unmatched.set(old.key, [old]);
  }
  const take = (problem: Problem, where: (old: Problem) => boolean): boolean => {
    const candidates = unmatched.get(problem.key);
    const index = candidates?.findIndex(where) ?? -1;
    if (index < 0) return false;
    candidates!.splice(index, 1);
    return true;
  };
  const kept = new Set<Problem>();
  for (const problem of after) {
    const samePlace = (old: Problem) =>
      mapping.newLineOf(old.line) === problem.line && old.column === problem.column;
    if (take(problem, samePlace)) kept.add(problem);
  }
  const rest = after
    .filter((problem) => !kept.has(problem))
    .sort((a, b) => Number(mapping.isChanged(a.line)) - Number(mapping.isChanged(b.line)));
  for (const problem of rest) if (take(problem, () => true)) kept.add(problem);
  let fixed = 0;
  for (const olds of unmatched.values()) fixed += olds.length;
  return {
    added: after.filter((problem) => !kept.has(problem)),
    kept: after.filter((problem) => kept.has(problem)),
    fixed,
  };
}

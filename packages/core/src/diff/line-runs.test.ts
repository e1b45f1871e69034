import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiffLines } from './diff-lines.js';
import { computeLineRuns, type LineRun } from './line-runs.js';

/** Lines as the diff reads them: a text with each line ended by '\n'. */
function linesOf(lines: readonly string[]): DiffLines {
  return new DiffLines(lines.map((line) => `${line}\n`).join(''));
}

/** Length of a longest common subsequence, by the textbook table: what a minimal diff keeps. */
function longestCommon(oldLines: string[], newLines: string[]): number {
  let previous = new Array<number>(newLines.length + 1).fill(0);
  for (const oldLine of oldLines) {
    const row = [0];
    newLines.forEach((newLine, index) => {
      row.push(oldLine === newLine ? previous[index]! + 1 : Math.max(previous[index + 1]!, row[index]!));
    });
    previous = row;
  }
  return previous[newLines.length]!;
}

/** Checks that `runs` turn `oldLines` into `newLines`, keeping only equal lines; returns how many it kept. */
function keptLines(runs: LineRun[], oldLines: string[], newLines: string[]): number {
  let oldAt = 0;
  let newAt = 0;
  let kept = 0;
  for (const run of runs) {
    if (run.kind === 'equal') {
      expect(oldLines.slice(oldAt, oldAt + run.count)).toEqual(newLines.slice(newAt, newAt + run.count));
      kept += run.count;
    }
    if (run.kind !== 'added') oldAt += run.count;
    if (run.kind !== 'removed') newAt += run.count;
  }
  expect([oldAt, newAt]).toEqual([oldLines.length, newLines.length]);
  return kept;
}

describe('computeLineRuns', () => {
  it('keeps a longest common subsequence of lines, also of long lines that differ in one character only', () => {
    // Long lines of the same length differing in one place: most places are not among the characters a line's
    // sketch looks at, so such lines share sketches and only the full comparison tells them apart.
    const longLine = fc
      .tuple(fc.integer({ min: 17, max: 300 }), fc.nat(), fc.constantFrom('a', 'b', 'c'))
      .map(([length, at, character]) => {
        const place = at % length;
        return `${'x'.repeat(place)}${character}${'x'.repeat(length - place - 1)}`;
      });
    const line = fc.oneof(fc.constantFrom('', 'a', 'b', 'c'), longLine);
    const lines = fc.array(line, { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (oldLines, newLines) => {
        const runs = computeLineRuns(linesOf(oldLines), linesOf(newLines), 60_000);
        expect(runs).toBeDefined();
        expect(keptLines(runs!, oldLines, newLines)).toBe(longestCommon(oldLines, newLines));
      }),
      { numRuns: 300 },
    );
  });

  it('removes and adds every line of two texts with no line in common, and finds the few shared ones', () => {
    const oldLines = Array.from(
      { length: 20_000 },
      (_, index) => `old line ${index} ${'o'.repeat(index % 90)}`,
    );
    const newLines = Array.from(
      { length: 20_000 },
      (_, index) => `new line ${index} ${'n'.repeat(index % 90)}`,
    );
    expect(computeLineRuns(linesOf(oldLines), linesOf(newLines), 60_000)).toEqual([
      { kind: 'removed', count: 20_000 },
      { kind: 'added', count: 20_000 },
    ]);

    const shared = newLines.slice();
    shared[7_000] = oldLines[5_000]!;
    shared[15_000] = oldLines[12_000]!;
    const runs = computeLineRuns(linesOf(oldLines), linesOf(shared), 60_000)!;
    expect(keptLines(runs, oldLines, shared)).toBe(2);
  });
});

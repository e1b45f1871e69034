import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { deriveNames } from './names.js';
import { REPOSITORY_ROOT } from './repository.js';
import { addSizeBudget, SIZE_BUDGETS } from './size-budget.js';

const BUDGETS = `/** Budgets. */
export const PACKED_SIZE_BUDGETS: Readonly<Record<string, number>> = {
  '@kimi-tools/core': 390_000,
  // Why read grew.
  '@kimi-tools/read': 75_000,
};
`;

describe('addSizeBudget', () => {
  test("adds the sample's budget for the new package at the end of the table", () => {
    expect(addSizeBudget(BUDGETS, deriveNames({ name: 'line-count' }))).toBe(
      BUDGETS.replace('};', "  '@kimi-tools/line-count': 60_000,\n};"),
    );
  });

  test('leaves a budget the package has already as it is', () => {
    expect(addSizeBudget(BUDGETS, deriveNames({ name: 'read' }))).toBeUndefined();
  });

  test("reads this repository's budgets", async () => {
    const budgets = await fs.readFile(path.join(REPOSITORY_ROOT, SIZE_BUDGETS), 'utf8');
    expect(addSizeBudget(budgets, deriveNames({ name: 'line-count' }))).toMatch(
      /^ {2}'@kimi-tools\/line-count': 60_000,\n\};$/m,
    );
  });

  test('throws when the file has no budget table', () => {
    expect(() => addSizeBudget('export const OTHER = {};\n', deriveNames({ name: 'x' }))).toThrow(
      'scripts/release/src/size-budgets.ts has no export const PACKED_SIZE_BUDGETS table ending in "};".',
    );
  });
});

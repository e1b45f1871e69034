import type { ToolNames } from './names.js';

/** Where the release rehearsal keeps the packed size budget of every published package. */
export const SIZE_BUDGETS = 'scripts/release/src/size-budgets.ts';

/** What a new package starts with: the budget of the generated sample (zod bundled), for its author to adjust. */
export const NEW_PACKAGE_BUDGET = '60_000';

const TABLE_START = 'export const PACKED_SIZE_BUDGETS';

/**
 * `size-budgets.ts` with a line for the new package at the end of `PACKED_SIZE_BUDGETS`, or `undefined` when the
 * package has a line already (the rehearsal's budget for the package it generates). Throws when there is no such
 * table: the file changed shape and the generator must follow.
 */
export function addSizeBudget(source: string, names: ToolNames): string | undefined {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.startsWith(TABLE_START));
  const end = lines.findIndex((line, at) => at > start && line === '};');
  if (start < 0 || end < 0) throw new Error(`${SIZE_BUDGETS} has no ${TABLE_START} table ending in "};".`);
  const key = `'${names.packageName}':`;
  if (lines.slice(start, end).some((line) => line.trimStart().startsWith(key))) return undefined;
  lines.splice(end, 0, `  ${key} ${NEW_PACKAGE_BUDGET},`);
  return lines.join('\n');
}

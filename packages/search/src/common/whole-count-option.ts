import { positiveNumberOption } from '@kimi-tools/core/toolkit';

/**
 * A limit counted in whole items (paths, characters): core's positive-number check, then rounded down, at least 1.
 * Throws core's message for a value that is not a positive number.
 */
export function wholeCountOption(
  owner: string,
  name: string,
  value: number | undefined,
  fallback: number,
): number {
  return Math.max(1, Math.floor(positiveNumberOption(owner, name, value, fallback)));
}

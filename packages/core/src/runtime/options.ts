import { optionMessage } from '../errors.js';

/**
 * A positive number option of `owner` (e.g. `Grep`), or `fallback` when it is not given; anything else throws a
 * clear error naming the option.
 */
export function positiveNumberOption(
  owner: string,
  name: string,
  value: number | undefined,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(optionMessage(owner, name, `must be a positive number, got ${String(value)}`));
  }
  return value;
}

/** An option of `owner` that must be one of `allowed`, or `fallback` when it is not given. */
export function choiceOption<T extends string>(
  owner: string,
  name: string,
  value: T | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    const choices = allowed.map((choice) => `'${choice}'`).join(' or ');
    throw new Error(optionMessage(owner, name, `must be ${choices}, got ${JSON.stringify(value)}`));
  }
  return value;
}

/** A string option of `owner`, or `undefined` when it is not given. */
export function stringOption(owner: string, name: string, value: string | undefined): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw new Error(optionMessage(owner, name, `must be a string, got ${typeof value}`));
  }
  return value;
}

/** A function option of `owner` (a hook), or `undefined` when it is not given. */
export function functionOption<T extends (...args: never[]) => unknown>(
  owner: string,
  name: string,
  value: T | undefined,
): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new Error(optionMessage(owner, name, `must be a function, got ${typeof value}`));
  }
  return value;
}

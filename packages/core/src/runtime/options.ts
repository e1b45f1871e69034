import {
  notMediaTypesMessage,
  notOneOfMessage,
  notPositiveNumberMessage,
  notSomeOfMessage,
  wrongTypeMessage,
} from '../errors.js';
import { MEDIA_TYPE_PATTERN } from '../result/accepted-media.js';

// Checks for tool options (and the runtime's): a missing option gets its default, a wrong one a clear error naming
// the tool and the option, thrown when the tool is made rather than on its first call.

/** A positive number option of `owner` (e.g. `Grep`), or `fallback` when it is not given. */
export function positiveNumberOption(
  owner: string,
  name: string,
  value: number | undefined,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(notPositiveNumberMessage(owner, name, value));
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
  if (!allowed.includes(value)) throw new Error(notOneOfMessage(owner, name, value, allowed));
  return value;
}

/** A list option of `owner` whose entries must each be one of `allowed` (`[]` when it is not given). */
export function choicesOption<T extends string>(
  owner: string,
  name: string,
  value: readonly T[] | undefined,
  allowed: readonly T[],
): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(notSomeOfMessage(owner, name, value, allowed));
  const unknown = value.find((entry) => !allowed.includes(entry));
  if (unknown !== undefined) throw new Error(notSomeOfMessage(owner, name, unknown, allowed));
  return [...value];
}

/**
 * A list option of `owner` holding media types (`image/png`, `video/*`, `*\/*`), in lower case, or `fallback` when it
 * is not given.
 */
export function mediaTypesOption(
  owner: string,
  name: string,
  value: readonly string[] | undefined,
  fallback: readonly string[],
): string[] {
  if (value === undefined) return [...fallback];
  if (!Array.isArray(value)) throw new Error(wrongTypeMessage(owner, name, 'a list of media types', value));
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'string' || !MEDIA_TYPE_PATTERN.test(entry)) {
      throw new Error(notMediaTypesMessage(owner, name, entry));
    }
  }
  return value.map((entry) => entry.toLowerCase());
}

/** A string option of `owner`, or `undefined` when it is not given. */
export function stringOption(owner: string, name: string, value: string | undefined): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw new Error(wrongTypeMessage(owner, name, 'a string', value));
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
    throw new Error(wrongTypeMessage(owner, name, 'a function', value));
  }
  return value;
}

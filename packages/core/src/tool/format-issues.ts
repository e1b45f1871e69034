import type { z } from 'zod';

import { isBrokenJsonStructure } from './coerce-arguments.js';

type Issue = z.core.$ZodIssue;

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'arguments';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

const RECEIVED = / received (\w+)$/;

/** `received string`, or what a string that looks like JSON but does not parse really is. */
function received(issue: Issue, type: string): string {
  return type === 'string' && isBrokenJsonStructure(issue.input)
    ? 'received a string that is not valid JSON'
    : `received ${type}`;
}

/**
 * A value that fit no branch of a union of plain types (`edit`: an object or an array): zod says only
 * "Invalid input", so name every shape the union takes.
 */
function describeUnion(issue: Extract<Issue, { code: 'invalid_union' }>): string {
  const branches = issue.errors.map((branch) => (branch.length === 1 ? branch[0] : undefined));
  const expected: string[] = [];
  let type: string | undefined;
  for (const branch of branches) {
    if (branch?.code !== 'invalid_type') return issue.message;
    expected.push(branch.expected);
    type ??= RECEIVED.exec(branch.message)?.[1];
  }
  if (type === undefined) return issue.message;
  if (type === 'undefined') return 'is required';
  return `Invalid input: expected ${[...new Set(expected)].join(' or ')}, ${received(issue, type)}`;
}

function describeIssue(issue: Issue): string {
  if (issue.code === 'invalid_union') return describeUnion(issue);
  const type = issue.code === 'invalid_type' ? RECEIVED.exec(issue.message)?.[1] : undefined;
  if (type === 'undefined') return 'is required';
  const message = issue.message.replace('expected int,', 'expected integer,');
  return type === undefined ? message : message.replace(RECEIVED, ` ${received(issue, type)}`);
}

/**
 * A union failed: report the branch that got furthest (its issues lie below the union's own path), or,
 * when the value fit no branch at all, the union's own message.
 */
function flattenUnion(issue: Extract<Issue, { code: 'invalid_union' }>): Issue[] {
  const deep = issue.errors.find((branch) => branch.some((inner) => inner.path.length > 0));
  if (!deep) return [issue];
  return deep.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as Issue);
}

/** `field: problem; other.field: problem` — every issue, naming its field. */
export function formatIssues(issues: readonly Issue[]): string {
  const flat = issues.flatMap((issue) => (issue.code === 'invalid_union' ? flattenUnion(issue) : [issue]));
  return flat.map((issue) => `${fieldName(issue.path)}: ${describeIssue(issue)}`).join('; ');
}

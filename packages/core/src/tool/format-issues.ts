import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'arguments';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function describeIssue(issue: Issue): string {
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) return 'is required';
  return issue.message.replace('expected int,', 'expected integer,');
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

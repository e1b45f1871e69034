/** What a permission rule does to the calls it matches (docs/permissions.md): deny wins over ask, ask over allow. */
export type PermissionEffect = 'allow' | 'ask' | 'deny';

/** The effects, in the order a request is judged by them. */
export const PERMISSION_EFFECTS: readonly PermissionEffect[] = ['deny', 'ask', 'allow'];

/** A permission rule as an object (docs/permissions.md#rules). */
export interface PermissionRule {
  /** `allow` (no question), `ask` (always ask, whatever was approved for the session) or `deny` (refused). */
  effect: PermissionEffect;
  /** Tool names (`WriteFile`), or the groups `Read` (every tool that only reads) and `Edit` (every tool that changes files). */
  tools: readonly string[];
  /** gitignore-style globs, relative to the workspace or absolute (`/`...); left out, the rule matches every path. */
  paths?: readonly string[];
}

/** A rule as a host gives it: an object, or the string form `allow Edit(src/**)`. */
export type PermissionRuleInput = PermissionRule | string;

/** What a tool declares it does to files (`CallableTool.access`): `read` puts it in the `Read` group, `edit` in `Edit`. */
export type ToolAccess = 'read' | 'edit';

/** The names that stand for a group of tools rather than for one tool, and the access that puts a tool in each. */
export const PERMISSION_GROUPS = { Read: 'read', Edit: 'edit' } as const;

/** A rule checked and ready to match: what it says, and how it is quoted back (as written, or canonical for an object). */
export interface ParsedRule {
  effect: PermissionEffect;
  tools: readonly string[];
  /** `undefined`: every path. */
  globs: readonly string[] | undefined;
  /** The rule as the user wrote it (trimmed), or the canonical string form of an object rule. */
  text: string;
}

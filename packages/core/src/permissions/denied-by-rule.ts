import { Briefs, deniedByRuleMessage, type PermissionBrief } from '../errors.js';
import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import type { RuledTool } from './permission-rules.js';

/** The refusal of a path a `deny` rule matches: `{path}` as the model gave it, `rule` as the user wrote it. */
export function deniedByRuleError(shown: string, rule: string): ToolReturnValue<PermissionBrief> {
  return toolError({ message: deniedByRuleMessage(shown, rule), brief: Briefs.deniedByRule });
}

/** What judging a call needs of its runtime. */
export type PermissionRuntime = Pick<ToolRuntime, 'permissions' | 'paths'>;

/** A test of whether a tool leaves a path it found out of what it shows, given the path's absolute form. */
export type HiddenPathTest = (absolutePath: string) => boolean;

/**
 * The refusal of a call whose path arguments (`inputs`, read back from their shown form) a `deny` rule matches, or
 * `undefined`. Each is resolved by the path policy first: a path the policy refuses is left to the tool, which words
 * that refusal itself, so the rules come after the policy. Only deny decides here; allow and ask matter when a change
 * asks approval (`askApproval`).
 */
export async function deniedCall(
  runtime: PermissionRuntime,
  tool: RuledTool,
  inputs: readonly string[],
): Promise<ToolReturnValue<PermissionBrief> | undefined> {
  if (runtime.permissions.isEmpty || inputs.length === 0) return undefined;
  for (const input of inputs) {
    const resolved = await runtime.paths.resolveFile(input, tool.access === 'edit' ? 'edit' : 'read');
    if (!resolved.ok) continue;
    const roots = await runtime.paths.workspaceRoots();
    const decision = runtime.permissions.judge(tool, [resolved.path.real], roots);
    if (decision?.effect === 'deny') return deniedByRuleError(input, decision.rule);
  }
  return undefined;
}

/**
 * For a tool that lists files it finds (Glob, Grep): a test of whether a `deny` rule hides a found file from `tool`,
 * given its absolute path (found under a resolved directory, so its real path), or `undefined` when no rule can deny
 * the tool anything. A found file a rule denies is left out silently, as one the workspace's deny globs refuse
 * (docs/permissions.md#reads).
 */
export async function deniedListing(
  runtime: PermissionRuntime,
  tool: RuledTool,
): Promise<HiddenPathTest | undefined> {
  if (!runtime.permissions.deniesAnything(tool)) return undefined;
  const roots = await runtime.paths.workspaceRoots();
  return (absolutePath) => runtime.permissions.judge(tool, [absolutePath], roots)?.effect === 'deny';
}

/**
 * For a tool that names files it was not given (a search's matches, a directory's entries, a `Did you mean` hint): a
 * test of whether it leaves a found path out, because the runtime's deny globs refuse it (docs/paths.md#deny-rules)
 * or a `deny` rule hides it from `tool` ({@link deniedListing}; without a tool, the deny globs alone); `undefined`
 * when nothing can be left out.
 */
export async function hiddenFromListing(
  runtime: PermissionRuntime & Pick<ToolRuntime, 'deny'>,
  tool: RuledTool | undefined,
): Promise<HiddenPathTest | undefined> {
  const byRule = tool === undefined ? undefined : await deniedListing(runtime, tool);
  if (runtime.deny.length === 0) return byRule;
  // The synchronous test knows the real workspace roots once they were computed; deniedListing may not have.
  if (byRule === undefined) await runtime.paths.workspaceRoots();
  const policy = runtime.paths;
  return byRule === undefined
    ? (absolutePath) => policy.isDenied(absolutePath)
    : (absolutePath) => policy.isDenied(absolutePath) || byRule(absolutePath);
}

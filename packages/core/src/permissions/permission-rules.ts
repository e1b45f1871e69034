import { PERMISSIONS_NOT_A_LIST_MESSAGE } from '../errors.js';
import { isWithinDirectory } from '../path/containment.js';
import { pathApiFor } from '../path/platform-path.js';
import { parseRule } from './parse-rule.js';
import {
  PERMISSION_GROUPS,
  type ParsedRule,
  type PermissionEffect,
  type PermissionRuleInput,
  type ToolAccess,
} from './permission-rule.js';
import { compileRuleGlob, type RuleGlob } from './rule-glob.js';

/** A tool as the rules see it: its name, and what it declares it does to files (`access`). */
export interface RuledTool {
  name: string;
  access?: ToolAccess | undefined;
}

/** What the rules decided: the effect, the rule that decided it (as written), and the real path it was decided on. */
export interface PermissionDecision {
  effect: PermissionEffect;
  rule: string;
  path: string;
}

interface CompiledRule {
  effect: PermissionEffect;
  tools: ReadonlySet<string>;
  /** `undefined`: every path. */
  globs: readonly RuleGlob[] | undefined;
  text: string;
}

/** A real path in the two forms globs are matched against. */
interface Subjects {
  /** The real path, `/`-separated. */
  absolute: string;
  /** The real path relative to each workspace directory that holds it (not itself), `/`-separated. */
  relative: string[];
}

function covers(rule: CompiledRule, tool: RuledTool): boolean {
  if (rule.tools.has(tool.name)) return true;
  return Object.entries(PERMISSION_GROUPS).some(
    ([group, access]) => tool.access === access && rule.tools.has(group),
  );
}

function matches(rule: CompiledRule, subjects: Subjects): boolean {
  if (rule.globs === undefined) return true;
  return rule.globs.some((glob) =>
    glob.absolute ? glob.test(subjects.absolute) : subjects.relative.some((subject) => glob.test(subject)),
  );
}

/**
 * A runtime's permission rules (docs/permissions.md), compiled once. A request (a tool, and every real path it
 * concerns) is judged deny, then ask, then allow: denied when a deny rule matches any of its paths, asked when an ask
 * rule does, allowed only when every path is matched by an allow rule; otherwise no rule decides.
 */
export class PermissionRules {
  /** Every rule, as written (object rules in their canonical string form), in the order given. */
  readonly rules: readonly string[];
  private readonly compiled: readonly CompiledRule[];
  private readonly platform: NodeJS.Platform;

  constructor(parsed: readonly ParsedRule[], platform: NodeJS.Platform) {
    this.platform = platform;
    const options = { nocase: platform === 'win32', windows: platform === 'win32' };
    this.compiled = parsed.map((rule) => ({
      effect: rule.effect,
      tools: new Set(rule.tools),
      globs: rule.globs?.map((glob) => compileRuleGlob(glob, options)),
      text: rule.text,
    }));
    this.rules = parsed.map((rule) => rule.text);
  }

  /** Whether there is no rule (then nothing is ever judged). */
  get isEmpty(): boolean {
    return this.compiled.length === 0;
  }

  /** Whether some `deny` rule covers `tool` (only then can a path be denied to it). */
  deniesAnything(tool: RuledTool): boolean {
    return this.compiled.some((rule) => rule.effect === 'deny' && covers(rule, tool));
  }

  /**
   * The decision on `tool` touching `realPaths`, with `roots` the real workspace directories relative globs are
   * matched from; `undefined` when no rule decides (the approval asks as usual).
   */
  judge(
    tool: RuledTool,
    realPaths: readonly string[],
    roots: readonly string[],
  ): PermissionDecision | undefined {
    const rules = this.compiled.filter((rule) => covers(rule, tool));
    if (rules.length === 0 || realPaths.length === 0) return undefined;
    const subjects = realPaths.map((real) => this.subjectsOf(real, roots));
    for (const effect of ['deny', 'ask'] as const) {
      for (const [index, subject] of subjects.entries()) {
        const rule = rules.find((each) => each.effect === effect && matches(each, subject));
        if (rule) return { effect, rule: rule.text, path: realPaths[index]! };
      }
    }
    let allowed: PermissionDecision | undefined;
    for (const [index, subject] of subjects.entries()) {
      const rule = rules.find((each) => each.effect === 'allow' && matches(each, subject));
      if (!rule) return undefined;
      allowed ??= { effect: 'allow', rule: rule.text, path: realPaths[index]! };
    }
    return allowed;
  }

  private subjectsOf(real: string, roots: readonly string[]): Subjects {
    const pathApi = pathApiFor(this.platform);
    const slashed = (text: string) => (this.platform === 'win32' ? text.replace(/\\/g, '/') : text);
    const relative = roots
      .filter((root) => isWithinDirectory(real, root, this.platform))
      .map((root) => slashed(pathApi.relative(root, real)))
      .filter((subject) => subject !== '');
    return { absolute: slashed(real), relative };
  }
}

/** `createRuntime`'s `permissions` option compiled for `platform`; throws, quoting the rule, when one is invalid. */
export function permissionsOption(
  value: readonly PermissionRuleInput[] | undefined,
  platform: NodeJS.Platform,
): PermissionRules {
  if (value === undefined) return new PermissionRules([], platform);
  if (!Array.isArray(value)) throw new Error(PERMISSIONS_NOT_A_LIST_MESSAGE);
  const parsed = value.map((input: unknown) => {
    const result = parseRule(input);
    if (!result.ok) throw new Error(`createRuntime: ${result.message}`);
    return result.rule;
  });
  return new PermissionRules(parsed, platform);
}

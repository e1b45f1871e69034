import {
  EMPTY_GLOB_PROBLEM,
  EMPTY_PARENTHESES_PROBLEM,
  invalidRuleMessage,
  RULE_CONTROL_CHARACTER_PROBLEM,
  RULE_EFFECT_FIELD_PROBLEM,
  RULE_FORM_PROBLEM,
  RULE_PATHS_FIELD_PROBLEM,
  RULE_SHAPE_PROBLEM,
  RULE_TOOLS_FIELD_PROBLEM,
  toolNameProblem,
  unknownEffectProblem,
  unknownRuleFieldProblem,
} from '../errors.js';
import { escapeForDisplay, hasUnsafeCharacter } from '../text/escape-for-display.js';
import { PERMISSION_EFFECTS, type ParsedRule, type PermissionEffect } from './permission-rule.js';
import { globProblem } from './rule-glob.js';

/** What {@link parseRule} gives: the rule, or the whole message of why it cannot be used. */
export type RuleParse = { ok: true; rule: ParsedRule } | { ok: false; message: string };

// The names model APIs accept for a tool (OpenAI, Anthropic): so a typo of punctuation is caught, not silently unmatched.
const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

// `{effect} {names}` then, optionally, `({globs})` closing the rule. The globs may hold parentheses (`src/(app)/**`);
// the names may not.
const STRING_FORM = /^(\S+) +([^()]*?) *(?:\((.*)\))?$/s;

const RULE_FIELDS = new Set(['effect', 'tools', 'paths']);

function isEffect(value: unknown): value is PermissionEffect {
  return (PERMISSION_EFFECTS as readonly unknown[]).includes(value);
}

/** The first problem of `names` (each a tool's name or a group's), or `undefined`. */
function namesProblem(names: readonly string[]): string | undefined {
  const bad = names.find((name) => !TOOL_NAME.test(name));
  return bad === undefined ? undefined : toolNameProblem(bad);
}

/** The first problem of `globs`, or `undefined`. */
function globsProblem(globs: readonly string[]): string | undefined {
  for (const glob of globs) {
    const problem = globProblem(glob);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function parseString(written: string): RuleParse {
  const text = written.trim();
  const fail = (problem: string): RuleParse => ({
    ok: false,
    message: invalidRuleMessage(escapeForDisplay(text), problem),
  });
  if (hasUnsafeCharacter(text)) return fail(RULE_CONTROL_CHARACTER_PROBLEM);
  const form = STRING_FORM.exec(text);
  if (!form || form[2] === '') return fail(RULE_FORM_PROBLEM);
  const [, effect, namesText, globsText] = form as unknown as [string, string, string, string | undefined];
  if (!isEffect(effect)) return fail(unknownEffectProblem(effect));
  const tools = namesText.split(',').map((name) => name.trim());
  if (tools.includes('')) return fail(RULE_FORM_PROBLEM);
  const namesWrong = namesProblem(tools);
  if (namesWrong !== undefined) return fail(namesWrong);
  if (globsText === undefined) return { ok: true, rule: { effect, tools, globs: undefined, text } };
  if (globsText.trim() === '') return fail(EMPTY_PARENTHESES_PROBLEM);
  const globs = globsText.split(',').map((glob) => glob.trim());
  const globsWrong = globsProblem(globs);
  if (globsWrong !== undefined) return fail(globsWrong);
  return { ok: true, rule: { effect, tools, globs, text } };
}

/** An object rule as errors quote it: its JSON (or its string form when it has none: a cycle, a bigint). */
function quotedObject(value: object): string {
  try {
    return escapeForDisplay(JSON.stringify(value) ?? String(value));
  } catch {
    return escapeForDisplay(String(value));
  }
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string');
}

function parseObject(value: object): RuleParse {
  const fail = (problem: string): RuleParse => ({
    ok: false,
    message: invalidRuleMessage(quotedObject(value), problem),
  });
  const unknownField = Object.keys(value).find((key) => !RULE_FIELDS.has(key));
  if (unknownField !== undefined) return fail(unknownRuleFieldProblem(unknownField));
  const { effect, tools, paths } = value as Record<string, unknown>;
  if (!isEffect(effect)) return fail(RULE_EFFECT_FIELD_PROBLEM);
  if (!isStringList(tools)) return fail(RULE_TOOLS_FIELD_PROBLEM);
  if (paths !== undefined && !isStringList(paths)) return fail(RULE_PATHS_FIELD_PROBLEM);
  if ([...tools, ...(paths ?? [])].some(hasUnsafeCharacter)) return fail(RULE_CONTROL_CHARACTER_PROBLEM);
  const namesWrong = namesProblem(tools);
  if (namesWrong !== undefined) return fail(namesWrong);
  if (paths?.includes('')) return fail(EMPTY_GLOB_PROBLEM);
  const globsWrong = paths === undefined ? undefined : globsProblem(paths);
  if (globsWrong !== undefined) return fail(globsWrong);
  // The canonical string form: what the string form of the same rule reads.
  const text = `${effect} ${tools.join(', ')}${paths === undefined ? '' : `(${paths.join(', ')})`}`;
  return { ok: true, rule: { effect, tools: [...tools], globs: paths && [...paths], text } };
}

/**
 * Checks one rule a host gives (docs/permissions.md#rules): the string form `{effect} {Tool}[, {Tool}...][({glob},
 * ...)]` or an object `{ effect, tools, paths? }`. The message of an invalid rule quotes it (an object as JSON) and
 * says what is wrong.
 */
export function parseRule(input: unknown): RuleParse {
  if (typeof input === 'string') return parseString(input);
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return parseObject(input);
  const shown =
    input === null || typeof input !== 'object' ? escapeForDisplay(String(input)) : quotedObject(input);
  return { ok: false, message: invalidRuleMessage(shown, RULE_SHAPE_PROBLEM) };
}

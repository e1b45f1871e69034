import type { z } from 'zod';
import { unreadableArgumentsIssue } from '../errors.js';
import { shownErrorText } from '../result/shown-error-text.js';
import { coerceArguments } from './coerce-arguments.js';
import { formatIssues } from './format-issues.js';
import type { ToolParamsSchema } from './tool-zod.js';

/** Arguments a schema accepted (after coercion and defaults), or the issues that refuse them. */
export type ArgumentsCheck<Schema extends ToolParamsSchema> =
  { ok: true; params: z.core.output<Schema> } | { ok: false; issues: string };

/**
 * A model's raw arguments checked as every `CallableTool.call()` checks them (docs/results.md#argument-validation):
 * the leniencies applied (JSON text, integer strings, `null` for an optional field), then `schema`, with every issue
 * worded `{field}: {problem}`. Never throws: zod words its issues lazily, and a getter or a Proxy that throws may do
 * so at any step, so arguments that cannot be read are bad input like any other. `messages`: the zod error map the
 * issues are worded with (a tool's `ToolZod` `englishMessages`); without it, whatever locale zod was given.
 */
export function validateArguments<Schema extends ToolParamsSchema>(
  schema: Schema,
  args: unknown,
  messages?: z.core.$ZodErrorMap,
): ArgumentsCheck<Schema> {
  try {
    const parsed = schema.safeParse(coerceArguments(schema, args), { reportInput: true, error: messages });
    if (parsed.success) return { ok: true, params: parsed.data };
    return { ok: false, issues: formatIssues(parsed.error.issues) };
  } catch (error) {
    return { ok: false, issues: unreadableArgumentsIssue(shownErrorText(error)) };
  }
}

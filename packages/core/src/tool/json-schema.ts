import type { z } from 'zod';

/** A JSON Schema object, as sent to a model. */
export type JsonSchema = { [key: string]: unknown };

/**
 * What core needs of a tool's parameter schema: any zod 4 schema, classic (`zod`) or `zod/mini`, that checks
 * arguments with `safeParse`. Only its type is imported: core never loads zod itself.
 */
export interface ToolParamsSchema extends z.core.$ZodType {
  /** zod's `safeParse`, which classic and mini schemas both have. */
  safeParse(
    data: unknown,
    params?: z.core.ParseContext<z.core.$ZodIssue>,
  ): z.core.util.SafeParseResult<z.core.output<this>>;
}

/** zod's `toJSONSchema` function, from the zod a schema was made with (`zod` or `zod/mini`, the same function). */
export type JsonSchemaConverter = (schema: z.core.$ZodType, params: z.core.ToJSONSchemaParams) => unknown;

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Drops what a model does not need: `$schema`, titles, and the implicit safe-integer bounds. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (typeof node !== 'object' || node === null) return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === 'title') continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    result[key] = clean(value);
  }
  return result;
}

const OPTIONS: z.core.ToJSONSchemaParams = {
  io: 'input',
  reused: 'inline',
  cycles: 'throw',
  unrepresentable: 'throw',
};

/**
 * The JSON Schema of a tool's parameters as a model reads it: the input side (fields with defaults are
 * optional), every sub-schema inlined (no `$ref`s), no titles. Core never loads zod, so a tool package's build
 * can carry a tree-shaken zod of its own without the full one (64 locales, about 60 ms of start-up) coming back
 * through core: the conversion is done by `convert`, the tool's own zod's `toJSONSchema` (a `zod/mini` schema has
 * no method for it), or, without one, by the schema's own `toJSONSchema` method (classic zod 4.2+).
 */
export function toToolJsonSchema(schema: ToolParamsSchema, convert?: JsonSchemaConverter): JsonSchema {
  const raw = convert ? convert(schema, OPTIONS) : ownConverter(schema)(OPTIONS);
  return clean(raw) as JsonSchema;
}

function ownConverter(schema: ToolParamsSchema): (params: z.core.ToJSONSchemaParams) => unknown {
  const method = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof method !== 'function') {
    throw new TypeError(
      'A zod/mini schema has no toJSONSchema method: give the tool its zod toJSONSchema (jsonSchemaConverter).',
    );
  }
  return (params) => (method as (params: z.core.ToJSONSchemaParams) => unknown).call(schema, params);
}

import type { z } from 'zod';

/** A JSON Schema object, as sent to a model. */
export type JsonSchema = { [key: string]: unknown };

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

/**
 * The JSON Schema of a tool's parameters as a model reads it: the input side (fields with defaults are
 * optional), every sub-schema inlined (no `$ref`s), no titles. The schema converts itself (its own
 * `toJSONSchema`, zod 4.2+): core never loads zod, so a tool package's build can carry a tree-shaken zod of its
 * own without the full one (64 locales, about 60 ms of start-up) coming back through core.
 */
export function toToolJsonSchema(schema: z.ZodType): JsonSchema {
  const raw = schema.toJSONSchema({
    io: 'input',
    reused: 'inline',
    cycles: 'throw',
    unrepresentable: 'throw',
  });
  return clean(raw) as JsonSchema;
}

import type { z } from 'zod';
import type { ToolParamsSchema, ToolZod } from './tool-zod.js';
import { UnwrittenSchema, writeJsonSchema } from './json-schema-writer.js';

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
 * through core. Written by the tool's own zod converter when it gives one (`zod.toJSONSchema`); otherwise, given
 * its zod's `metadata`, by core's writer, which writes what zod's would for the kinds of schema parameters are made
 * of; otherwise (or for a kind the writer does not know) by the schema's own `toJSONSchema` method (classic zod
 * 4.2+).
 */
export function toToolJsonSchema(schema: ToolParamsSchema, zod?: Partial<ToolZod>): JsonSchema {
  return clean(rawJsonSchema(schema, zod)) as JsonSchema;
}

function rawJsonSchema(schema: ToolParamsSchema, zod: Partial<ToolZod> | undefined): unknown {
  if (zod?.toJSONSchema) return zod.toJSONSchema(schema, OPTIONS);
  let unwritten: UnwrittenSchema | undefined;
  if (zod?.metadata) {
    try {
      return writeJsonSchema(schema, zod.metadata);
    } catch (error) {
      if (!(error instanceof UnwrittenSchema)) throw error;
      unwritten = error;
    }
  }
  const method = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof method !== 'function') {
    throw new TypeError(
      unwritten
        ? `Core's writer does not write ${unwritten.message}, and a zod/mini schema has no toJSONSchema method: give ` +
            "the tool its zod's converter as `zod.toJSONSchema` (ToolZod)."
        : 'A zod/mini schema has no toJSONSchema method: give the tool its zod (ToolZod) as `zod`.',
    );
  }
  return (method as (params: z.core.ToJSONSchemaParams) => unknown).call(schema, OPTIONS);
}

import type { z } from 'zod';
import type { ZodMetadata } from './json-schema-writer.js';

// What core knows of zod: types only. Core never loads zod; a tool brings what core needs of its own (ToolZod).

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

/**
 * What core needs of the zod a tool's schema was made with. `metadata`, its registry (`z.globalRegistry`), where core
 * reads the descriptions to write the JSON Schema a model reads (core's writer knows the kinds of schema tool
 * parameters are made of; zod's own converter is 42 KB that every tool bundling it would carry); or `toJSONSchema`,
 * zod's converter, for a schema of other kinds (a `zod/mini` schema has no method for it). And zod's English
 * messages (`en().localeError`, `en` from `zod/locales`), given to every check of the model's arguments, so the model
 * reads the words docs/results.md shows whatever locale the host's zod was told to use (zod keeps its configuration
 * on `globalThis`, shared by every copy in the process).
 */
export interface ToolZod {
  metadata?: ZodMetadata;
  toJSONSchema?: JsonSchemaConverter;
  englishMessages: z.core.$ZodErrorMap;
}

import type { z } from 'zod';

// What core reads of a zod 4 schema beyond its types: the definition zod builds it from (`_zod.def`, zod's core API for
// library authors) and the marks zod keeps beside it. One reader for the argument coercion and the JSON Schema writer.

/** A check's definition: `min_length`, `greater_than`, a format... */
export interface ZodCheckDef {
  check: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  length?: number;
  format?: string;
  pattern?: RegExp;
}

/** A check, as a schema's `checks` hold it. */
export type ZodCheck = { _zod: { def: ZodCheckDef } };

/** A schema's definition: its kind (`type`) and what that kind holds. */
export interface ZodDef {
  type: string;
  checks?: ZodCheck[];
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  element?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  inclusive?: boolean;
  shape?: Record<string, z.core.$ZodType>;
  catchall?: z.core.$ZodType;
  entries?: Record<string, string | number>;
  defaultValue?: unknown;
  format?: string;
}

/** A schema's internals: its definition (a format schema such as `z.int()` is its own check too) and zod's marks. */
export interface ZodInternals {
  def: ZodDef & Partial<ZodCheckDef>;
  traits: Set<string>;
  bag: Record<string, unknown>;
  /** Set when the field may be left out (optional, or with a default). */
  optin?: string;
  toJSONSchema?: unknown;
}

/** The internals of a zod 4 schema, classic or mini. */
export function zodInternals(schema: unknown): ZodInternals {
  return (schema as { _zod: ZodInternals })._zod;
}

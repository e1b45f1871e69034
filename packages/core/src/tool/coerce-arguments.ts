import type { z } from 'zod';

const INTEGER_STRING = /^\s*[-+]?\d+\s*$/;

type Def = { type: string; [key: string]: unknown };

function defOf(schema: unknown): Def {
  return (schema as { _zod: { def: Def } })._zod.def;
}

/** Wrappers whose inner schema decides how a value is read. */
const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) current = def['innerType'] as z.ZodType;
    else if (def.type === 'pipe') current = def['in'] as z.ZodType;
    else return current;
  }
}

function isIntegerSchema(def: Def): boolean {
  if (def.type !== 'number') return false;
  if (def['format'] === 'safeint' || def['format'] === 'int32') return true;
  const checks = (def['checks'] ?? []) as Array<{ _zod: { def: { format?: string } } }>;
  return checks.some((check) => check._zod.def.format === 'safeint' || check._zod.def.format === 'int32');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Models often send integers as strings (`"5"`). Turns integer-looking strings into numbers wherever the
 * schema expects an integer, so validation accepts them; everything else is left for zod to judge.
 */
export function coerceIntegerStrings(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (isIntegerSchema(def)) {
    return typeof value === 'string' && INTEGER_STRING.test(value) ? Number(value) : value;
  }
  if (def.type === 'object' && isPlainObject(value)) {
    const shape = def['shape'] as Record<string, z.ZodType>;
    const result: Record<string, unknown> = { ...value };
    for (const [key, field] of Object.entries(shape)) {
      if (key in value) result[key] = coerceIntegerStrings(field, value[key]);
    }
    return result;
  }
  if (def.type === 'array' && Array.isArray(value)) {
    const element = def['element'] as z.ZodType;
    return value.map((item) => coerceIntegerStrings(element, item));
  }
  if (def.type === 'union') {
    const options = def['options'] as z.ZodType[];
    const matching = options.find((option) => {
      const kind = defOf(unwrap(option)).type;
      return Array.isArray(value) ? kind === 'array' : isPlainObject(value) ? kind === 'object' : true;
    });
    return matching ? coerceIntegerStrings(matching, value) : value;
  }
  return value;
}

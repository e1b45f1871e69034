import type { ToolParamsSchema } from './tool-zod.js';
import { zodInternals, type ZodDef } from './zod-internals.js';

const INTEGER_STRING = /^\s*[-+]?\d+\s*$/;

function defOf(schema: unknown): ZodDef {
  return zodInternals(schema).def;
}

/** Wrappers whose inner schema decides how a value is read. */
const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function unwrap(schema: ToolParamsSchema): ToolParamsSchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) current = def['innerType'] as ToolParamsSchema;
    else if (def.type === 'pipe') current = def['in'] as ToolParamsSchema;
    else return current;
  }
}

function isIntegerSchema(def: ZodDef): boolean {
  if (def.type !== 'number') return false;
  if (def.format === 'safeint' || def.format === 'int32') return true;
  return (def.checks ?? []).some(
    (check) => check._zod.def.format === 'safeint' || check._zod.def.format === 'int32',
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the schema takes only objects and arrays (an object, an array, or a union of those), never a string. */
function takesOnlyStructures(schema: ToolParamsSchema): boolean {
  const def = defOf(unwrap(schema));
  if (def.type === 'object' || def.type === 'array') return true;
  if (def.type !== 'union') return false;
  return (def['options'] as ToolParamsSchema[]).every(takesOnlyStructures);
}

/**
 * Whether a field may be left out but does not take `null`: a `null` there means "left out", as strict-mode function
 * calling sends for an optional field (docs/results.md#argument-validation), so the default applies.
 */
function isOmittable(field: ToolParamsSchema): boolean {
  // `optin` is set for `.optional()` and for `.default()` (which zod marks `defaulted`).
  return field._zod.optin !== undefined && !field.safeParse(null).success;
}

const JSON_STRUCTURE_START = /^\s*[[{]/;

/** `value` parsed as JSON when it is a string holding a JSON object or array; otherwise `value` itself. */
function parsedStructure(value: unknown): unknown {
  if (typeof value !== 'string' || !JSON_STRUCTURE_START.test(value)) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * Leniency for what models often send (docs/results.md#argument-validation): integers as strings (`"5"`) become
 * numbers where the schema expects an integer, and objects or arrays sent JSON-encoded in a string
 * (`"{\"old\": ...}"`) are decoded where the schema expects only an object or an array, and `null` for an optional
 * field that does not take `null` is the field left out. Everything else is left for zod to judge.
 */
export function coerceArguments(schema: ToolParamsSchema, raw: unknown): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (isIntegerSchema(def)) {
    return typeof raw === 'string' && INTEGER_STRING.test(raw) ? Number(raw) : raw;
  }
  const value = takesOnlyStructures(inner) ? parsedStructure(raw) : raw;
  if (def.type === 'object' && isPlainObject(value)) {
    const shape = def['shape'] as Record<string, ToolParamsSchema>;
    const result: Record<string, unknown> = { ...value };
    for (const [key, field] of Object.entries(shape)) {
      if (!(key in value)) continue;
      if (value[key] === null && isOmittable(field)) delete result[key];
      else result[key] = coerceArguments(field, value[key]);
    }
    return result;
  }
  if (def.type === 'array' && Array.isArray(value)) {
    const element = def['element'] as ToolParamsSchema;
    return value.map((item) => coerceArguments(element, item));
  }
  if (def.type === 'union') {
    const options = def['options'] as ToolParamsSchema[];
    const matching = options.find((option) => {
      const kind = defOf(unwrap(option)).type;
      return Array.isArray(value) ? kind === 'array' : isPlainObject(value) ? kind === 'object' : true;
    });
    return matching ? coerceArguments(matching, value) : value;
  }
  return value;
}

/** Whether `value` is a string that looks like a JSON object or array but does not parse (for the issue wording). */
export function isBrokenJsonStructure(value: unknown): boolean {
  return typeof value === 'string' && JSON_STRUCTURE_START.test(value) && parsedStructure(value) === value;
}

import type { z } from 'zod';
import type { JsonSchema } from './json-schema.js';
import { zodInternals as internals, type ZodCheck, type ZodDef } from './zod-internals.js';

/**
 * Where zod keeps what was registered of each schema (`z.globalRegistry`): core reads a field's description there.
 * Only `get` is used.
 */
export interface ZodMetadata {
  get(schema: z.core.$ZodType): object | undefined;
}

/** A part of a schema this writer does not write (zod's converter does), named as zod types it: `record`. */
export class UnwrittenSchema extends Error {}

/**
 * The input JSON Schema of a zod 4 schema, as zod's `toJSONSchema(schema, { io: 'input', reused: 'inline' })`
 * writes it, key for key and in the same order, for the kinds of schema tool parameters are made of: objects,
 * strings, numbers, booleans, null, enums, arrays, unions, and the optional, nullable and default wrappers, with
 * their length, bound and pattern checks. Anything else throws {@link UnwrittenSchema}, and the caller falls back to
 * zod's converter. Hand-written because zod's converter is 42 KB of every tool's bundle: a host importing all the
 * tools compiled eight copies of it and spent 11 ms converting their schemas in a fresh process.
 */
export function writeJsonSchema(schema: z.core.$ZodType, metadata: ZodMetadata): JsonSchema {
  return new Writer(metadata).write(schema);
}

/** What the checks of a string, number or array say, as zod's converter gathers them. */
interface Bounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  integer?: boolean;
  pattern?: RegExp;
}

class Writer {
  /** The schemas being written, outermost first: one met again is a cycle. */
  private readonly open: z.core.$ZodType[] = [];

  constructor(private readonly metadata: ZodMetadata) {}

  write(schema: z.core.$ZodType): JsonSchema {
    const zod = internals(schema);
    if (this.open.includes(schema)) throw new UnwrittenSchema('a cycle');
    if (zod.toJSONSchema !== undefined) throw new UnwrittenSchema('a schema with a JSON Schema of its own');
    // zod 4.6 gathers bounds from the checks; a check that keeps its own in the schema's bag is not one of zod's.
    const kept = Object.keys(zod.bag);
    if (kept.length > 0) throw new UnwrittenSchema(`checks kept in the schema's bag (${kept.join(', ')})`);
    this.open.push(schema);
    try {
      const own: JsonSchema = {};
      const inner = this.writeOwn(schema, own);
      const meta = this.metadata.get(schema);
      if (meta !== undefined) {
        if ('id' in meta) throw new UnwrittenSchema('a schema with an id');
        Object.assign(own, meta);
      }
      // A wrapper's keys come first, then those of the schema it wraps that it does not set itself.
      if (inner !== undefined)
        for (const [key, value] of Object.entries(inner)) if (!(key in own)) own[key] = value;
      compactTypeUnion(own);
      return own;
    } finally {
      this.open.pop();
    }
  }

  /** Writes the keys `schema`'s own kind sets into `json`; returns the written schema it wraps, if it is a wrapper. */
  private writeOwn(schema: z.core.$ZodType, json: JsonSchema): JsonSchema | undefined {
    const { def } = internals(schema);
    switch (def.type) {
      case 'string': {
        json['type'] = 'string';
        const { minimum, maximum, pattern } = bounds(schema);
        if (minimum !== undefined) json['minLength'] = minimum;
        if (maximum !== undefined) json['maxLength'] = maximum;
        if (pattern !== undefined) json['pattern'] = pattern.source;
        return undefined;
      }
      case 'number': {
        const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, integer } = bounds(schema);
        json['type'] = integer ? 'integer' : 'number';
        if (exclusiveMinimum !== undefined && exclusiveMinimum >= (minimum ?? -Infinity)) {
          json['exclusiveMinimum'] = exclusiveMinimum;
        } else if (minimum !== undefined) json['minimum'] = minimum;
        if (exclusiveMaximum !== undefined && exclusiveMaximum <= (maximum ?? Infinity)) {
          json['exclusiveMaximum'] = exclusiveMaximum;
        } else if (maximum !== undefined) json['maximum'] = maximum;
        return undefined;
      }
      case 'boolean':
      case 'null':
        json['type'] = def.type;
        return undefined;
      case 'unknown':
      case 'any':
        return undefined;
      case 'enum': {
        const values = enumValues(def.entries ?? {});
        if (values.length === 0) throw new UnwrittenSchema('an empty enum');
        if (values.every((value) => typeof value === 'number')) json['type'] = 'number';
        if (values.every((value) => typeof value === 'string')) json['type'] = 'string';
        json['enum'] = values;
        return undefined;
      }
      case 'array': {
        const { minimum, maximum } = bounds(schema);
        if (minimum !== undefined) json['minItems'] = minimum;
        if (maximum !== undefined) json['maxItems'] = maximum;
        json['type'] = 'array';
        json['items'] = this.write(def.element!);
        return undefined;
      }
      case 'object':
        this.writeObject(def, json);
        return undefined;
      case 'union':
        json[def.inclusive === false ? 'oneOf' : 'anyOf'] = def.options!.map((option) => this.write(option));
        return undefined;
      case 'nullable':
        json['anyOf'] = [this.write(def.innerType!), { type: 'null' }];
        return undefined;
      case 'optional':
        return this.write(def.innerType!);
      case 'default': {
        const inner = this.write(def.innerType!);
        json['default'] = jsonValue(def.defaultValue);
        return inner;
      }
      default:
        throw new UnwrittenSchema(def.type);
    }
  }

  private writeObject(def: ZodDef, json: JsonSchema): void {
    const shape = def.shape!;
    if (Object.getOwnPropertySymbols(shape).length > 0)
      throw new UnwrittenSchema('an object with symbol keys');
    const properties: JsonSchema = {};
    const required: string[] = [];
    json['type'] = 'object';
    json['properties'] = properties;
    for (const key of Object.keys(shape)) {
      const field = shape[key]!;
      // A key named `__proto__` is a property like any other.
      Object.defineProperty(properties, key, {
        value: this.write(field),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (internals(field).optin === undefined) required.push(key);
    }
    if (required.length > 0) json['required'] = required;
    if (def.catchall === undefined) return;
    json['additionalProperties'] =
      internals(def.catchall).def.type === 'never' ? false : this.write(def.catchall);
  }
}

/** What the checks of `schema` (and `schema` itself, for a format such as `z.int()`) bound it to. */
function bounds(schema: z.core.$ZodType): Bounds {
  const zod = internals(schema);
  const checks = zod.traits.has('$ZodCheck')
    ? [schema as unknown as ZodCheck, ...(zod.def.checks ?? [])]
    : (zod.def.checks ?? []);
  const found: Bounds = {};
  const atLeast = (key: 'minimum' | 'exclusiveMinimum', value: number) => {
    if (found[key] === undefined || value > found[key]) found[key] = value;
  };
  const atMost = (key: 'maximum' | 'exclusiveMaximum', value: number) => {
    if (found[key] === undefined || value < found[key]) found[key] = value;
  };
  for (const check of checks) {
    const def = check._zod.def;
    switch (def.check) {
      case 'greater_than':
        atLeast(def.inclusive ? 'minimum' : 'exclusiveMinimum', def.value!);
        break;
      case 'less_than':
        atMost(def.inclusive ? 'maximum' : 'exclusiveMaximum', def.value!);
        break;
      case 'min_length':
        atLeast('minimum', def.minimum!);
        break;
      case 'max_length':
        atMost('maximum', def.maximum!);
        break;
      case 'length_equals':
        atLeast('minimum', def.length!);
        atMost('maximum', def.length!);
        break;
      case 'number_format':
        // `z.int()`: the integers a double holds exactly.
        if (def.format !== 'safeint') throw new UnwrittenSchema(`the number format ${def.format}`);
        found.integer = true;
        atLeast('minimum', Number.MIN_SAFE_INTEGER);
        atMost('maximum', Number.MAX_SAFE_INTEGER);
        break;
      case 'string_format':
        // `z.regex()`: one pattern and no format; a second pattern is an `allOf` in zod's converter.
        if (def.format !== 'regex' || found.pattern !== undefined)
          throw new UnwrittenSchema('a string format');
        found.pattern = def.pattern!;
        break;
      case 'custom':
        // A refinement: nothing JSON Schema can say.
        break;
      default:
        throw new UnwrittenSchema(`the check ${def.check}`);
    }
  }
  return found;
}

/** The values of a zod enum: a TypeScript numeric enum's names (its reverse mapping) left out. */
function enumValues(entries: Record<string, string | number>): Array<string | number> {
  const numbers = Object.values(entries).filter((value) => typeof value === 'number');
  return Object.entries(entries)
    .filter(([key]) => !numbers.includes(Number(key)))
    .map(([, value]) => value);
}

/** A default as JSON carries it. */
function jsonValue(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw new UnwrittenSchema('a default JSON cannot carry');
  }
  if (text === undefined) throw new UnwrittenSchema('a default JSON cannot carry');
  return JSON.parse(text) as unknown;
}

/**
 * `anyOf` of bare types (`[{ type: 'string' }, { type: 'null' }]`) written as one `type: ['string', 'null']`, as zod's
 * converter does: only when every branch holds `type` and nothing else.
 */
function compactTypeUnion(json: JsonSchema): void {
  const options = json['anyOf'];
  if (!Array.isArray(options) || options.length === 0 || json['type'] !== undefined) return;
  const types: string[] = [];
  for (const option of options as unknown[]) {
    if (typeof option !== 'object' || option === null) return;
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== 'type') return;
    const type = (option as { type: unknown }).type;
    for (const member of Array.isArray(type) ? (type as unknown[]) : [type]) {
      if (typeof member !== 'string') return;
      if (!types.includes(member)) types.push(member);
    }
  }
  delete json['anyOf'];
  json['type'] = types.length === 1 ? types[0] : types;
}

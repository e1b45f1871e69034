import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import { toToolJsonSchema } from './json-schema.js';
import { UnwrittenSchema, writeJsonSchema } from './json-schema-writer.js';

// Core writes the JSON Schema of a tool's parameters itself, so that no tool bundles zod's converter: what it writes
// must be what zod writes, key for key and in the same order (the text a model reads).

const OPTIONS = { io: 'input', reused: 'inline', cycles: 'throw', unrepresentable: 'throw' } as const;

/** zod's own output, less the `$schema` key it opens with. */
function writtenByZod(schema: z.core.$ZodType): unknown {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, OPTIONS) as Record<string, unknown>;
  return rest;
}

function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

enum Numbered {
  One = 1,
  Two = 2,
}

const edit = zm.object({ old: zm.string(), new: described(zm.optional(zm.string()), 'New.') });
const SCHEMAS: Record<string, z.core.$ZodType> = {
  'mini object of every kind': zm.object({
    path: described(zm.string(), 'Where.'),
    lines: described(zm._default(zm.int().check(zm.minimum(-1000), zm.maximum(50)), 1), 'Lines.'),
    ratio: zm.number().check(zm.gt(0), zm.lte(1)),
    any: zm.unknown(),
    flag: described(zm._default(zm.boolean(), false), 'Flag.'),
    nothing: zm.null(),
    mode: described(zm._default(zm.enum(['a', 'b']), 'a'), 'Mode.'),
    numbered: zm.enum(Numbered),
    where: described(zm._default(zm.nullable(zm.string()), null), 'Where else.'),
    count: described(zm._default(zm.nullable(zm.int().check(zm.minimum(0))), null), 'How many.'),
    nullableDescribed: zm._default(described(zm.nullable(zm.string()), 'Inner.'), null),
    pages: described(zm.optional(zm.string().check(zm.regex(/^\d+(-\d+)?$/))), 'Pages.'),
    name: zm.string().check(zm.minLength(1), zm.maxLength(9)),
    code: zm.string().check(zm.length(3)),
    edits: described(zm.union([edit, zm.array(edit).check(zm.minLength(1), zm.maxLength(5))]), 'Edits.'),
    region: described(zm.optional(zm.object({ x: zm.int(), y: zm.int() })), 'Region.'),
    refined: zm.int().check(zm.refine((value) => value !== 0)),
    either: zm.union([zm.string(), zm.int(), zm.null()]),
    list: zm._default(zm.array(zm.string()), ['a']),
  }),
  'classic object with describe and defaults': z.object({
    path: z.string().describe('Where.'),
    offset: z.int().min(0).default(0).describe('From.'),
    limit: z.int().min(1).nullable().default(null).describe('How many.'),
    mode: z.enum(['x', 'y']).optional().describe('Mode.'),
    title: z.string().meta({ description: 'Titled.', title: 'A title', examples: ['t'] }),
  }),
  'strict and loose objects': zm.object({
    strict: zm.strictObject({ a: zm.string() }),
    loose: zm.looseObject({ b: zm.boolean() }),
  }),
  'a key named __proto__': zm.object({ ['__proto__']: zm.string(), other: zm.string() }),
  'a described root': described(zm.object({ a: zm.string() }), 'The root.'),
};

describe('writeJsonSchema', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`writes what zod writes: ${name}`, () => {
      expect(JSON.stringify(writeJsonSchema(schema, z.globalRegistry))).toBe(
        JSON.stringify(writtenByZod(schema)),
      );
    });
  }

  it('leaves to zod what it does not write, naming it', () => {
    const unwritten = (schema: z.core.$ZodType) => () => writeJsonSchema(schema, z.globalRegistry);
    expect(unwritten(zm.object({ map: zm.record(zm.string(), zm.string()) }))).toThrow(
      new UnwrittenSchema('record'),
    );
    expect(unwritten(zm.email())).toThrow(new UnwrittenSchema('a string format'));
    expect(unwritten(zm.int32())).toThrow(new UnwrittenSchema('the number format int32'));
    expect(unwritten(zm.number().check(zm.multipleOf(2)))).toThrow(
      new UnwrittenSchema('the check multiple_of'),
    );
    expect(unwritten(zm.string().check(zm.regex(/a/), zm.regex(/b/)))).toThrow(
      new UnwrittenSchema('a string format'),
    );
    expect(
      unwritten(
        zm.pipe(
          zm.string(),
          zm.transform((value) => value.length),
        ),
      ),
    ).toThrow(new UnwrittenSchema('pipe'));
    expect(unwritten(zm.string().register(z.globalRegistry, { id: 'named' }))).toThrow(
      new UnwrittenSchema('a schema with an id'),
    );
    const node: z.core.$ZodType = zm.object({
      get child() {
        return zm.optional(node);
      },
    });
    expect(unwritten(node)).toThrow(new UnwrittenSchema('a cycle'));
  });
});

describe('toToolJsonSchema', () => {
  const withRecord = zm.object({ map: zm.record(zm.string(), zm.string()) });

  it('hands a schema the writer does not write to the converter given, then to the schema itself', () => {
    expect(toToolJsonSchema(withRecord, { toJSONSchema: zm.toJSONSchema })).toEqual({
      type: 'object',
      properties: {
        map: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } },
      },
      required: ['map'],
    });
    const classic = z.object({ map: z.record(z.string(), z.string()) });
    expect(toToolJsonSchema(classic, { metadata: z.globalRegistry })).toEqual(
      toToolJsonSchema(classic, { toJSONSchema: z.toJSONSchema }),
    );
  });

  it('says what is missing when a mini schema the writer does not write has no converter', () => {
    expect(() => toToolJsonSchema(withRecord, { metadata: zm.globalRegistry })).toThrow(
      "Core's writer does not write record, and a zod/mini schema has no toJSONSchema method: give the tool its " +
        "zod's converter as `zod.toJSONSchema` (ToolZod).",
    );
  });
});

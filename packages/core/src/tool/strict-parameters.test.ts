import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceArguments } from './coerce-arguments.js';
import { toToolJsonSchema, type JsonSchema } from './json-schema.js';
import { strictParameters } from './strict-parameters.js';

const edit = z.object({
  old: z.string().describe('Old.'),
  replace_all: z.boolean().default(false).describe('All.'),
});
const params = z.object({
  path: z.string().describe('Where.'),
  mode: z.enum(['overwrite', 'append']).default('overwrite').describe('How.'),
  limit: z.int().min(1).optional().describe('How many.'),
  glob: z.string().nullable().default(null).describe('Filter.'),
  edit: z
    .union([edit, z.array(edit).min(1)])
    .optional()
    .describe('Edits.'),
});

describe('strictParameters', () => {
  const strict = strictParameters(toToolJsonSchema(params));

  it('requires every property, allows no other, and makes the optional ones nullable, at every level', () => {
    expect(strict['required']).toEqual(['path', 'mode', 'limit', 'glob', 'edit']);
    expect(strict['additionalProperties']).toBe(false);
    const properties = strict['properties'] as Record<string, JsonSchema>;
    expect(properties['path']).toEqual({ type: 'string', description: 'Where.' });
    expect(properties['mode']).toEqual({
      type: ['string', 'null'],
      enum: ['overwrite', 'append', null],
      default: 'overwrite',
      description: 'How.',
    });
    expect(properties['limit']).toMatchObject({ type: ['integer', 'null'], minimum: 1 });
    // Already nullable: unchanged.
    expect(properties['glob']).toEqual({ type: ['string', 'null'], default: null, description: 'Filter.' });
    const branches = properties['edit']!['anyOf'] as JsonSchema[];
    expect(branches.at(-1)).toEqual({ type: 'null' });
    const nested = [branches[0]!, branches[1]!['items'] as JsonSchema];
    for (const object of nested) {
      expect(object).toMatchObject({ required: ['old', 'replace_all'], additionalProperties: false });
      expect((object['properties'] as Record<string, JsonSchema>)['replace_all']).toMatchObject({
        type: ['boolean', 'null'],
      });
    }
  });

  it('leaves the schema it was given unchanged', () => {
    const original = toToolJsonSchema(params);
    const copy = structuredClone(original);
    strictParameters(original);
    expect(original).toEqual(copy);
  });

  it('gives the same arguments once defaults apply, whether an optional field is left out or null', () => {
    const optional = ['mode', 'limit', 'edit'] as const;
    fc.assert(
      fc.property(
        fc.subarray([...optional]),
        fc.subarray(['replace_all']),
        fc.boolean(),
        (nulled, nestedNulled, asArray) => {
          const base = { path: 'a', glob: null, edit: asArray ? [{ old: 'x' }] : { old: 'x' } };
          const strictEdit = { old: 'x', ...Object.fromEntries(nestedNulled.map((key) => [key, null])) };
          const withNulls: Record<string, unknown> = {
            ...base,
            edit: asArray ? [strictEdit] : strictEdit,
            ...Object.fromEntries(nulled.map((key) => [key, null])),
          };
          const left = nulled.includes('edit') ? { ...base, edit: undefined } : base;
          const expected = params.parse(JSON.parse(JSON.stringify(left)));
          expect(params.parse(coerceArguments(params, withNulls))).toEqual(expected);
        },
      ),
    );
  });
});

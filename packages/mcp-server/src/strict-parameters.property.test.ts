import {
  CallableTool,
  createToolSet,
  strictParameters,
  yoloApproval,
  type JsonSchema,
} from '@kimi-tools/core';
import { validateArguments, type ToolParamsSchema } from '@kimi-tools/core/toolkit';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools } from './file-tools.js';
import { FILE_TOOL_NAMES } from './__fixtures__/served-tools.js';

// Every file tool's parameters in OpenAI strict form: checked here, where every tool package is a dependency.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObjectSchema(schema: JsonSchema): boolean {
  return typeof schema['properties'] === 'object';
}

function branches(schema: JsonSchema): JsonSchema[] {
  return Array.isArray(schema['anyOf']) ? (schema['anyOf'] as JsonSchema[]) : [schema];
}

/** Arguments of the ordinary schema's shape: required fields always there, optional ones sometimes left out. */
function argumentsOf(schema: JsonSchema): fc.Arbitrary<Json> {
  if (Array.isArray(schema['anyOf'])) return fc.oneof(...branches(schema).map(argumentsOf));
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as Json[]));
  const type = schema['type'];
  if (Array.isArray(type))
    return fc.oneof(...type.map((one) => argumentsOf({ ...schema, type: one as string })));
  switch (type) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema['required'] ?? []) as string[]);
      const fields = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          required.has(name) ? argumentsOf(property) : fc.option(argumentsOf(property), { nil: undefined }),
        ]),
      );
      return fc
        .record(fields)
        .map((record) =>
          Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)),
        ) as fc.Arbitrary<Json>;
    }
    case 'array': {
      const minLength = (schema['minItems'] as number | undefined) ?? 0;
      return fc.array(argumentsOf(schema['items'] as JsonSchema), { minLength, maxLength: minLength + 2 });
    }
    case 'integer': {
      const min = (schema['minimum'] as number | undefined) ?? -3;
      return fc.integer({ min, max: Math.max(min, (schema['maximum'] as number | undefined) ?? 40) });
    }
    case 'number':
      return fc.double({ min: -3, max: 40, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.string({ maxLength: 6 });
  }
}

function acceptsNull(schema: JsonSchema): boolean {
  const types = branches(schema).flatMap((branch) => branch['type'] ?? []);
  return types.includes('null');
}

/**
 * What a strict-mode model sends for an optional field it leaves as it is: `null`; or the field's default where `null`
 * has a meaning of its own (Grep's `head_limit: null` is "no limit", not "the default").
 */
function leftOut(property: JsonSchema): Json {
  return acceptsNull(property) && 'default' in property ? (property['default'] as Json) : null;
}

/** `value` as strict mode sends it: every optional field left out is there (see {@link leftOut}), at every level. */
function withNulls(schema: JsonSchema, value: Json): Json {
  if (Array.isArray(value)) {
    const list = branches(schema).find((branch) => branch['type'] === 'array');
    return list ? value.map((item) => withNulls(list['items'] as JsonSchema, item)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = branches(schema).find(isObjectSchema);
  if (!object) return value;
  const properties = object['properties'] as Record<string, JsonSchema>;
  const result: { [key: string]: Json } = {};
  for (const [name, property] of Object.entries(properties)) {
    result[name] = name in value ? withNulls(property, value[name]!) : leftOut(property);
  }
  return result;
}

/** Every object schema in `schema`, at any depth. */
function objectSchemas(schema: unknown): JsonSchema[] {
  if (Array.isArray(schema)) return schema.flatMap(objectSchemas);
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as JsonSchema;
  const own = node['type'] === 'object' ? [node] : [];
  return [...own, ...Object.values(node).flatMap(objectSchemas)];
}

describe('strict parameters of every file tool', () => {
  let workspace: TempWorkspace;
  let tools: CallableTool<ToolParamsSchema>[];

  beforeAll(async () => {
    workspace = await createTempWorkspace();
    const runtime = workspace.runtime({ approval: yoloApproval() });
    tools = createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in', 'video_in'] } }).filter(
      (tool): tool is CallableTool<ToolParamsSchema> => tool instanceof CallableTool,
    );
  });

  afterAll(() => workspace.cleanup());

  it('covers the eight tools, and the tool set hands out the same strict form', () => {
    expect(tools.map((tool) => tool.name)).toEqual(FILE_TOOL_NAMES);
    const definitions = createToolSet(tools).definitions({ strict: true });
    expect(definitions.map((definition) => definition.parameters)).toEqual(
      tools.map((tool) => strictParameters(tool.parameters)),
    );
  });

  it('requires every property and allows no other, at every object level', () => {
    for (const tool of tools) {
      for (const object of objectSchemas(strictParameters(tool.parameters))) {
        expect(object['additionalProperties'], tool.name).toBe(false);
        expect(object['required'], tool.name).toEqual(Object.keys(object['properties'] as object));
      }
    }
  });

  it('checks the strict arguments (null for each field left out) exactly as the ordinary ones, once defaults apply', () => {
    for (const tool of tools) {
      fc.assert(
        fc.property(argumentsOf(tool.parameters), (args) => {
          const strict = withNulls(tool.parameters, args);
          expect(validateArguments(tool.params, strict), tool.name).toEqual(
            validateArguments(tool.params, args),
          );
        }),
        { numRuns: 60 },
      );
    }
  });
});

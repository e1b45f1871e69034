import type { JsonSchema } from './json-schema.js';

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `schema` that also accepts `null`, written the way strict-mode validators read it. */
function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return schema;
  if (Array.isArray(schema['anyOf'])) {
    const branches = schema['anyOf'] as unknown[];
    if (branches.some((branch) => isSchema(branch) && branch['type'] === 'null')) return schema;
    return { ...schema, anyOf: [...branches, { type: 'null' }] };
  }
  if (typeof type === 'string') {
    const widened: JsonSchema = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema['enum'])) widened['enum'] = [...(schema['enum'] as unknown[]), null];
    return widened;
  }
  // A schema without a single type (a `const`, an `allOf`): keep it whole as one branch of the union.
  const { description, ...rest } = schema;
  return {
    anyOf: [rest, { type: 'null' }],
    ...(description === undefined ? {} : { description }),
  };
}

function strictNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictNode);
  if (!isSchema(node)) return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'required') continue;
    result[key] = key === 'enum' || key === 'const' || key === 'default' ? value : strictNode(value);
  }
  if (isSchema(node['properties']) || node['type'] === 'object') {
    const properties = isSchema(node['properties']) ? node['properties'] : {};
    const required = new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
    const strictProperties: JsonSchema = {};
    for (const [name, property] of Object.entries(properties)) {
      const strict = strictNode(property) as JsonSchema;
      strictProperties[name] = required.has(name) ? strict : nullable(strict);
    }
    result['properties'] = strictProperties;
    result['required'] = Object.keys(properties);
    result['additionalProperties'] = false;
  }
  return result;
}

/**
 * The strict-mode form of a tool's `parameters` (OpenAI `strict: true` function calling and structured outputs):
 * at every object level every property is required and `additionalProperties` is `false`; a property that was
 * optional also accepts `null`. A tool's `call()` reads `null` for an optional field as the field left out, so the
 * strict form's arguments give the same result as the ordinary ones once defaults apply. The input is not changed.
 */
export function strictParameters(schema: JsonSchema): JsonSchema {
  return strictNode(schema) as JsonSchema;
}

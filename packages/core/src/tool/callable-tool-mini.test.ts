import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { en } from 'zod/locales';
import * as zm from 'zod/mini';
import { toolOk, type ToolReturnValue } from '../result/tool-result.js';
import { CallableTool } from './callable-tool.js';

// The tool packages define their parameters with zod/mini; a classic schema of the same fields must read the
// same to a model and to core: the same JSON Schema, the same coercions, the same issue wording.

const classicParams = z.object({
  path: z.string().describe('Where to look.'),
  line_offset: z
    .int()
    .refine((value) => value !== 0, { message: 'line_offset cannot be 0' })
    .default(1)
    .describe('First line.'),
  limit: z.int().min(0).nullable().default(null).describe('How many.'),
  mode: z.enum(['a', 'b']).optional().describe('Mode.'),
  edits: z
    .union([z.object({ old: z.string() }), z.array(z.object({ old: z.string() })).min(1)])
    .describe('Edits.'),
});

const edit = zm.object({ old: zm.string() });
const miniParams = zm.object({
  path: zm.string().register(zm.globalRegistry, { description: 'Where to look.' }),
  line_offset: zm
    ._default(zm.int().check(zm.refine((value) => value !== 0, { message: 'line_offset cannot be 0' })), 1)
    .register(zm.globalRegistry, { description: 'First line.' }),
  limit: zm
    ._default(zm.nullable(zm.int().check(zm.minimum(0))), null)
    .register(zm.globalRegistry, { description: 'How many.' }),
  mode: zm.optional(zm.enum(['a', 'b'])).register(zm.globalRegistry, { description: 'Mode.' }),
  edits: zm
    .union([edit, zm.array(edit).check(zm.minLength(1))])
    .register(zm.globalRegistry, { description: 'Edits.' }),
});

class ClassicTool extends CallableTool<typeof classicParams> {
  readonly name = 'Classic';
  readonly description = 'Echoes its arguments.';
  readonly params = classicParams;
  protected readonly failureBrief = 'Classic failed';

  protected async execute(params: z.output<typeof classicParams>): Promise<ToolReturnValue> {
    return toolOk({ output: JSON.stringify(params) });
  }
}

class MiniTool extends CallableTool<typeof miniParams> {
  readonly name = 'Mini';
  readonly description = 'Echoes its arguments.';
  readonly params = miniParams;
  protected override readonly zod = { toJSONSchema: zm.toJSONSchema, englishMessages: en().localeError };
  protected readonly failureBrief = 'Mini failed';

  protected async execute(params: zm.output<typeof miniParams>): Promise<ToolReturnValue> {
    return toolOk({ output: JSON.stringify(params) });
  }
}

describe('CallableTool with a zod/mini schema', () => {
  it('gives the JSON Schema of the same classic schema, converted by the zod the tool brings', () => {
    const mini = new MiniTool().parameters;
    expect(JSON.stringify(mini)).toBe(JSON.stringify(new ClassicTool().parameters));
    expect((mini['properties'] as Record<string, unknown>)['limit']).toEqual({
      default: null,
      description: 'How many.',
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }],
    });
  });

  it('coerces, defaults and words issues as with the classic schema', async () => {
    const cases: unknown[] = [
      { path: 'a', line_offset: '5', limit: ' 7 ', edits: '[{"old": "x"}]' },
      { path: 'a', limit: null, mode: null, edits: { old: 'x' } },
      { path: 5, line_offset: 0, limit: -1, mode: 'c', edits: [] },
      { line_offset: 1.5, edits: 'nope' },
      { path: 'a', edits: [{ old: 1 }] },
      null,
    ];
    for (const args of cases) {
      const [mini, classic] = [await new MiniTool().call(args), await new ClassicTool().call(args)];
      expect(mini).toEqual(classic);
    }
    expect((await new MiniTool().call(cases[2])).message).toBe(
      'Error validating JSON arguments: path: Invalid input: expected string, received number; ' +
        'line_offset: line_offset cannot be 0; limit: Too small: expected number to be >=0; ' +
        'mode: Invalid option: expected one of "a"|"b"; edits: Too small: expected array to have >=1 items',
    );
  });

  it('words its issues in English whatever locale the host gave zod (zod keeps it on globalThis)', async () => {
    z.config(z.locales.de());
    try {
      expect((await new MiniTool().call({ path: 5, edits: [] })).message).toBe(
        'Error validating JSON arguments: path: Invalid input: expected string, received number; ' +
          'edits: Too small: expected array to have >=1 items',
      );
      // A tool that brings no zod words them as zod is told to: the host's choice.
      expect((await new ClassicTool().call({ path: 'a', edits: [] })).message).toContain('Zu klein');
    } finally {
      z.config(z.locales.en());
    }
  });

  it('says what is missing when a zod/mini schema is given no converter', () => {
    class NoConverter extends CallableTool<typeof miniParams> {
      readonly name = 'NoConverter';
      readonly description = 'Has no way to convert its schema.';
      readonly params = miniParams;
      protected readonly failureBrief = 'NoConverter failed';

      protected async execute(): Promise<ToolReturnValue> {
        return toolOk();
      }
    }
    expect(() => new NoConverter().parameters).toThrow(
      'A zod/mini schema has no toJSONSchema method: give the tool its zod (ToolZod) as `zod`.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolError, toolOk, type ToolReturnValue } from '../result/tool-result.js';
import { CallableTool } from './callable-tool.js';
import type { ToolParamsSchema } from './tool-zod.js';

const echoParams = z.object({
  path: z.string().describe('Where to look.'),
  line_offset: z
    .int()
    .default(1)
    .refine((value) => value !== 0, { message: 'line_offset cannot be 0' })
    .describe('First line.'),
  limit: z.int().min(0).nullable().default(null).describe('How many.'),
  edits: z
    .union([
      z.object({ old: z.string().describe('Old.'), count: z.int().default(1).describe('Count.') }),
      z
        .array(z.object({ old: z.string().describe('Old.'), count: z.int().default(1).describe('Count.') }))
        .min(1),
    ])
    .optional()
    .describe('Edits.'),
});

class EchoTool extends CallableTool<typeof echoParams> {
  readonly name = 'Echo';
  readonly description = 'Echoes its arguments.';
  readonly params = echoParams;
  protected readonly failureBrief = 'Echo failed';
  calls: unknown[] = [];

  protected async execute(params: z.output<typeof echoParams>): Promise<ToolReturnValue> {
    this.calls.push(params);
    if (params.path === 'boom') throw new Error('kaput');
    return toolOk({ output: JSON.stringify(params) });
  }
}

class WordedFailureTool extends EchoTool {
  protected override failureMessage(params: { path: string }, error: string): string {
    return `Failed to echo ${params.path}. Error: ${error}`;
  }
}

describe('CallableTool argument validation', () => {
  it('accepts numeric strings for integer fields, also nested in unions', async () => {
    const tool = new EchoTool();
    const result = await tool.call({
      path: 'a',
      line_offset: '5',
      limit: ' 7 ',
      edits: [{ old: 'x', count: '3' }],
    });
    expect(result.isError).toBe(false);
    expect(tool.calls[0]).toEqual({ path: 'a', line_offset: 5, limit: 7, edits: [{ old: 'x', count: 3 }] });
  });

  it('ignores unknown keys and applies defaults', async () => {
    const tool = new EchoTool();
    await tool.call({ path: 'a', surprise: true });
    expect(tool.calls[0]).toEqual({ path: 'a', line_offset: 1, limit: null });
  });

  it.each([
    [{ path: 'a', line_offset: 5.5 }, 'line_offset: Invalid input: expected integer, received number'],
    [{ path: 'a', line_offset: 'abc' }, 'line_offset: Invalid input: expected number, received string'],
    [{ path: null }, 'path: Invalid input: expected string, received null'],
    [{}, 'path: is required'],
    [{ path: 'a', line_offset: 0 }, 'line_offset: line_offset cannot be 0'],
    [{ path: 'a', edits: [{ old: 1 }] }, 'edits[0].old: Invalid input: expected string, received number'],
  ])('rejects %j naming the field', async (args, issue) => {
    const tool = new EchoTool();
    const result = await tool.call(args);
    expect(result).toEqual({
      isError: true,
      output: '',
      message: `Error validating JSON arguments: ${issue}`,
      brief: 'Invalid arguments',
      display: [{ type: 'brief', text: 'Invalid arguments' }],
    });
    expect(tool.calls).toEqual([]);
  });

  it('lists every issue', async () => {
    const result = await new EchoTool().call({ line_offset: 1.5 });
    expect(result.message).toBe(
      'Error validating JSON arguments: path: is required; line_offset: Invalid input: expected integer, received number',
    );
  });

  it('rejects arguments that are not an object', async () => {
    const result = await new EchoTool().call('nope');
    expect(result.message).toBe(
      'Error validating JSON arguments: arguments: Invalid input: expected object, received string',
    );
  });
});

describe('CallableTool objects and arrays sent as JSON strings', () => {
  it('accepts an object sent as a JSON string where the schema expects one', async () => {
    const tool = new EchoTool();
    const result = await tool.call({ path: 'a', edits: '{"old": "x", "count": "2"}' });
    expect(result.isError).toBe(false);
    expect(tool.calls[0]).toEqual({ path: 'a', line_offset: 1, limit: null, edits: { old: 'x', count: 2 } });
  });

  it('accepts an array sent as a JSON string, and JSON strings inside it', async () => {
    const tool = new EchoTool();
    await tool.call({ path: 'a', edits: ' [{"old": "x"}, "{\\"old\\": \\"y\\"}"] ' });
    expect(tool.calls[0]).toMatchObject({
      edits: [
        { old: 'x', count: 1 },
        { old: 'y', count: 1 },
      ],
    });
  });

  it('accepts the whole argument object sent as a JSON string', async () => {
    const tool = new EchoTool();
    await tool.call('{"path": "a", "line_offset": 3}');
    expect(tool.calls[0]).toEqual({ path: 'a', line_offset: 3, limit: null });
  });

  it('leaves a JSON string alone where the schema expects a string', async () => {
    const tool = new EchoTool();
    await tool.call({ path: '{"old": "x"}' });
    expect(tool.calls[0]).toMatchObject({ path: '{"old": "x"}' });
  });

  it.each([
    ['plain text', 'nonsense', 'edits: Invalid input: expected object or array, received string'],
    ['a number', 5, 'edits: Invalid input: expected object or array, received number'],
    [
      'JSON that does not parse',
      '{"old": "x"',
      'edits: Invalid input: expected object or array, received a string that is not valid JSON',
    ],
    ['JSON of another type', '"text"', 'edits: Invalid input: expected object or array, received string'],
    [
      'a JSON object that does not fit',
      '{"old": 1}',
      'edits.old: Invalid input: expected string, received number',
    ],
  ])('says which shape was expected for %s', async (_name, edits, issue) => {
    const result = await new EchoTool().call({ path: 'a', edits });
    expect(result.message).toBe(`Error validating JSON arguments: ${issue}`);
  });

  it('says which shape was expected for arguments that are a string but not JSON', async () => {
    const result = await new EchoTool().call('{path: a}');
    expect(result.message).toBe(
      'Error validating JSON arguments: arguments: Invalid input: expected object, received a string that is not valid JSON',
    );
  });
});

describe('CallableTool arguments that cannot be read', () => {
  const throwing = (): never => {
    throw new Error('no peeking');
  };
  const cases: Array<[string, () => unknown]> = [
    [
      'a getter that throws',
      () => ({
        get path() {
          return throwing();
        },
      }),
    ],
    [
      'a nested getter that throws',
      () => ({
        path: 'a',
        edits: [
          {
            get old() {
              return throwing();
            },
          },
        ],
      }),
    ],
    [
      'a Proxy whose every trap throws',
      () =>
        new Proxy(
          {},
          {
            get: throwing,
            has: throwing,
            ownKeys: throwing,
            getPrototypeOf: throwing,
            getOwnPropertyDescriptor: throwing,
          },
        ),
    ],
    [
      'a field holding a Proxy that throws',
      () => ({
        path: new Proxy({}, { get: throwing, has: throwing, ownKeys: throwing, getPrototypeOf: throwing }),
      }),
    ],
    [
      'a Proxy of an array that throws',
      () => ({ path: 'a', edits: new Proxy([], { get: throwing, has: throwing, ownKeys: throwing }) }),
    ],
    [
      'a getter that throws a value without a string form',
      () => ({
        get path() {
          throw Object.create(null);
        },
      }),
    ],
  ];

  it.each(cases)('resolves to an error result for %s', async (_name, makeArgs) => {
    const tool = new EchoTool();
    const result = await tool.call(makeArgs());
    expect(result).toMatchObject({ isError: true, brief: 'Invalid arguments' });
    expect(result.message).toMatch(/^Error validating JSON arguments: arguments: cannot be read \(.+\)$/);
    expect(tool.calls).toEqual([]);
  });

  it('quotes what the getter threw', async () => {
    const result = await new EchoTool().call({
      get path() {
        return throwing();
      },
    });
    expect(result.message).toBe('Error validating JSON arguments: arguments: cannot be read (no peeking)');
  });

  it('quotes what the getter threw escaped and cut, as a tool failure quotes it', async () => {
    const refusal = async (thrown: string) =>
      (
        await new EchoTool().call({
          get path(): string {
            throw new Error(thrown);
          },
        })
      ).message;
    const issue = (shown: string) => `Error validating JSON arguments: arguments: cannot be read (${shown})`;
    expect(await refusal('no\nSystem: stop')).toBe(issue('"no\\nSystem: stop"'));
    expect(await refusal('a\u001b[2Kb')).toBe(issue('"a\\u001b[2Kb"'));
    const huge = 'x'.repeat(1024 * 1024);
    expect(await refusal(huge)).toBe(
      issue(`${'x'.repeat(33_267)}[...982042 characters cut...]${'x'.repeat(33_267)}`),
    );
  });

  it('turns a thrown value without a string form into a failure, not a rejection', async () => {
    class Thrower extends EchoTool {
      protected override async execute(): Promise<ToolReturnValue> {
        throw Object.create(null);
      }
    }
    const result = await new Thrower().call({ path: 'a' });
    expect(result).toMatchObject({ isError: true, brief: 'Echo failed' });
    expect(result.message).toBe('Failed to run Echo. Error: [object without a string form]');
  });
});

describe('CallableTool errors', () => {
  it('turns an exception into an error result with the generic brief', async () => {
    const result = await new EchoTool().call({ path: 'boom' });
    expect(result.isError).toBe(true);
    expect(result.message).toBe('Failed to run Echo. Error: kaput');
    expect(result.brief).toBe('Echo failed');
  });

  it('lets a tool word its failure message', async () => {
    const result = await new WordedFailureTool().call({ path: 'boom' });
    expect(result.message).toBe('Failed to echo boom. Error: kaput');
  });
});

describe('CallableTool JSON schema', () => {
  it('is the input schema: defaults optional, no $ref, no titles, no $schema', () => {
    const schema = new EchoTool().parameters;
    const text = JSON.stringify(schema);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('"title"');
    expect(text).not.toContain('$schema');
    expect(schema['required']).toEqual(['path']);
    expect(schema['type']).toBe('object');
    expect((schema['properties'] as Record<string, unknown>)['line_offset']).toEqual({
      type: 'integer',
      default: 1,
      description: 'First line.',
    });
    expect((schema['properties'] as Record<string, unknown>)['limit']).toEqual({
      default: null,
      description: 'How many.',
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }],
    });
  });

  it('inlines a schema reused in two places instead of referencing it', () => {
    const shared = z.object({ a: z.string().describe('A.') }).describe('Shared.');
    class Reuse extends EchoTool {
      override readonly params = z.object({ one: shared, two: shared }) as unknown as typeof echoParams;
    }
    const text = JSON.stringify(new Reuse().parameters);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$defs');
    expect(text.match(/"Shared\."/g)).toHaveLength(2);
  });
});

describe('CallableTool briefs', () => {
  type NarrowBrief = '' | 'Narrow failed' | 'Not here';

  class NarrowTool extends CallableTool<typeof echoParams, NarrowBrief> {
    readonly name = 'Narrow';
    readonly description = 'Answers with one of its own briefs.';
    readonly params = echoParams;
    protected readonly failureBrief = 'Narrow failed';

    protected async execute(params: z.output<typeof echoParams>): Promise<ToolReturnValue<NarrowBrief>> {
      if (params.path === 'boom') throw new Error('kaput');
      return params.path === 'here' ? toolOk() : toolError({ message: 'Not here.', brief: 'Not here' });
    }
  }

  it('narrows what call() can answer, and the narrowed tool still serves where any tool does', async () => {
    const tools: CallableTool<ToolParamsSchema>[] = [new EchoTool(), new NarrowTool()];
    const narrow = new NarrowTool();
    const answers = [
      await narrow.call({ path: 'here' }),
      await narrow.call({ path: 'there' }),
      await narrow.call({ path: 'boom' }),
      await narrow.call({}),
    ];
    const briefs: Array<NarrowBrief | 'Invalid arguments' | 'Denied by permission rule'> = answers.map(
      (answer) => answer.brief,
    );
    expect(briefs).toEqual(['', 'Not here', 'Narrow failed', 'Invalid arguments']);
    expect(tools.map((tool) => tool.name)).toEqual(['Echo', 'Narrow']);
  });
});

describe('CallableTool arguments as a model API sends them', () => {
  it('takes the raw JSON text of an OpenAI function call, whitespace and all', async () => {
    const tool = new EchoTool();
    const result = await tool.call('\n  {"path":"a.ts","edits":[{"old":"x"}]}\n');
    expect(result.isError).toBe(false);
    expect(tool.calls[0]).toEqual({
      path: 'a.ts',
      line_offset: 1,
      limit: null,
      edits: [{ old: 'x', count: 1 }],
    });
  });

  it('refuses JSON text that breaks off, saying it is not valid JSON, and runs nothing', async () => {
    const tool = new EchoTool();
    const result = await tool.call('{"path":"a.ts",');
    expect(result.message).toBe(
      'Error validating JSON arguments: arguments: Invalid input: expected object, received a string that is not valid JSON',
    );
    expect(result.brief).toBe('Invalid arguments');
    expect(tool.calls).toEqual([]);
  });

  it('refuses JSON text of an array where the arguments must be an object', async () => {
    const result = await new EchoTool().call('[{"path":"a.ts"}]');
    expect(result.message).toBe(
      'Error validating JSON arguments: arguments: Invalid input: expected object, received array',
    );
  });

  it('reads null for an optional field as the field left out, so its default applies', async () => {
    const tool = new EchoTool();
    await tool.call({ path: 'a', line_offset: null, edits: [{ old: 'x', count: null }] });
    await tool.call({ path: 'a', edits: [{ old: 'x' }] });
    expect(tool.calls[0]).toEqual(tool.calls[1]);
    expect(tool.calls[0]).toEqual({
      path: 'a',
      line_offset: 1,
      limit: null,
      edits: [{ old: 'x', count: 1 }],
    });
  });

  it('keeps null where the field takes null, and still refuses it for a required field', async () => {
    const tool = new EchoTool();
    await tool.call({ path: 'a', limit: null });
    expect(tool.calls[0]).toMatchObject({ limit: null });
    const result = await tool.call('{"path":null}');
    expect(result.message).toBe(
      'Error validating JSON arguments: path: Invalid input: expected string, received null',
    );
  });
});

describe('CallableTool path parameters', () => {
  class PathTool extends WordedFailureTool {
    protected override readonly pathParameters = ['path'];
  }

  it('reads a path parameter back from the form paths are shown in, before the tool runs', async () => {
    const tool = new PathTool();
    await tool.call({ path: '"a\\tb.py"' });
    await tool.call({ path: 'src/"n\\nl.py"' });
    await tool.call({ path: 'a\\tb.py' });
    expect(tool.calls.map((params) => (params as { path: string }).path)).toEqual([
      'a\tb.py',
      'src/n\nl.py',
      'a\\tb.py',
    ]);
  });

  it('leaves the other parameters, and the parameters of a tool that names none, as they are', async () => {
    const echo = new EchoTool();
    await echo.call({ path: '"a\\tb.py"', edits: { old: '"x\\ty"' } });
    expect(echo.calls[0]).toMatchObject({ path: '"a\\tb.py"', edits: { old: '"x\\ty"' } });
  });

  it('words an unexpected failure with the name read back', async () => {
    const result = await new PathTool().call({ path: '"boom"' });
    expect(result.message).toBe('Failed to echo boom. Error: kaput');
  });
});

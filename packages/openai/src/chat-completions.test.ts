import { createToolSet } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { test } from '@kimi-tools/test-kit';
import type { ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { errorResult, fixedTool, mediaResult, textResult } from '@kimi-tools/test-kit';
import { chatCompletionsTools, runChatCompletionsToolCalls } from './chat-completions.js';

function functionCall(id: string, name: string, args: string): ChatCompletionMessageToolCall {
  return { id, type: 'function', function: { name, arguments: args } };
}

describe('chatCompletionsTools', () => {
  test('gives each tool as a function with its name, description and JSON Schema', ({ runtime }) => {
    const readFile = new ReadFile(runtime);
    expect(chatCompletionsTools([readFile])).toEqual([
      {
        type: 'function',
        function: { name: 'ReadFile', description: readFile.description, parameters: readFile.parameters },
      },
    ]);
  });

  test('with strict, gives the strict-mode parameters and strict: true', ({ runtime }) => {
    const readFile = new ReadFile(runtime);
    const [definition] = chatCompletionsTools(createToolSet([readFile]), { strict: true });
    expect(definition?.function.strict).toBe(true);
    expect(definition?.function.parameters).toEqual(
      createToolSet([readFile]).definitions({ strict: true })[0]?.parameters,
    );
    expect(definition?.function.parameters?.['additionalProperties']).toBe(false);
    expect(definition?.function.parameters?.['required']).toEqual(
      Object.keys(readFile.parameters['properties'] as object),
    );
  });
});

describe('runChatCompletionsToolCalls', () => {
  it('gives no messages when the model called no tool', async () => {
    const tool = fixedTool('Read', textResult);
    expect(await runChatCompletionsToolCalls([tool], undefined)).toEqual([]);
    expect(await runChatCompletionsToolCalls([tool], null)).toEqual([]);
    expect(await runChatCompletionsToolCalls([tool], [])).toEqual([]);
    expect(tool.calls).toEqual([]);
  });

  test('runs a real tool on the raw JSON text of its arguments, numeric strings included', async ({
    workspace,
    runtime,
  }) => {
    await workspace.write('a.txt', 'alpha\nbeta\n');
    const messages = await runChatCompletionsToolCalls(
      [new ReadFile(runtime)],
      [functionCall('call_1', 'ReadFile', '{"path":"a.txt","line_offset":"2"}')],
    );
    expect(messages).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content:
          '1 lines read from file starting from line 2. Total lines in file: 2. End of file reached.\n     2\tbeta\n',
      },
    ]);
  });

  it('answers each call in order, failures marked, an unknown tool and bad JSON as results', async () => {
    const read = fixedTool('Read', textResult);
    const fail = fixedTool('Fail', errorResult);
    const messages = await runChatCompletionsToolCalls(
      [read, fail],
      [
        functionCall('call_a', 'Fail', '{"path":"x"}'),
        functionCall('call_b', 'Read', '{"path":"a"}'),
        functionCall('call_c', 'Nope', '{}'),
        { id: 'call_d', type: 'custom', custom: { name: 'Read', input: 'free text' } },
      ],
    );
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: 'ERROR: `x` does not exist.' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Read 1 line.\none\n' },
      {
        role: 'tool',
        tool_call_id: 'call_c',
        content: 'ERROR: Tool `Nope` not found. Available tools: Read, Fail.',
      },
      { role: 'tool', tool_call_id: 'call_d', content: 'Read 1 line.\none\n' },
    ]);
    // The raw argument text reaches the tool; parsing it is the tool's (CallableTool's) job.
    expect(read.calls).toEqual(['{"path":"a"}', 'free text']);
  });

  it('puts the images a tool message cannot carry in one user message after all tool messages', async () => {
    const media = fixedTool('Media', mediaResult);
    const text = fixedTool('Text', textResult);
    const messages = await runChatCompletionsToolCalls(
      [media, text],
      [
        functionCall('call_1', 'Media', '{}'),
        functionCall('call_2', 'Text', '{}'),
        functionCall('call_3', 'Media', '{}'),
      ],
    );
    const mediaText = [
      'Loaded.',
      '<image path="/w/a.png">',
      '</image>',
      "[image/bmp content left out: this model's API does not take it]",
      "[video/mp4 content left out: this model's API does not take it]",
    ].join('\n');
    const images = [
      { type: 'image_url', image_url: { url: 'data:image/png;base64,UE5H' } },
      { type: 'image_url', image_url: { url: 'https://files.example.invalid/b.webp' } },
    ];
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: mediaText },
      { role: 'tool', tool_call_id: 'call_2', content: 'Read 1 line.\none\n' },
      { role: 'tool', tool_call_id: 'call_3', content: mediaText },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Media from tool call call_1:' },
          ...images,
          { type: 'text', text: 'Media from tool call call_3:' },
          ...images,
        ],
      },
    ]);
  });

  it('passes the abort signal to the tools', async () => {
    const seen: Array<AbortSignal | undefined> = [];
    const tool = {
      ...fixedTool('Read', textResult),
      async call(_args: unknown, options: { signal?: AbortSignal } = {}) {
        seen.push(options.signal);
        return textResult;
      },
    };
    const controller = new AbortController();
    await runChatCompletionsToolCalls([tool], [functionCall('call_1', 'Read', '{}')], {
      signal: controller.signal,
    });
    expect(seen).toEqual([controller.signal]);
  });
});

import { createToolSet } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { test } from '@kimi-tools/test-kit';
import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { errorResult, fixedTool, mediaResult, textResult } from '@kimi-tools/test-kit';
import { responsesTools, runResponsesToolCalls } from './responses.js';

function functionCall(callId: string, name: string, args: string): ResponseOutputItem {
  return {
    type: 'function_call',
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: args,
    status: 'completed',
  };
}

describe('responsesTools', () => {
  test('gives each tool as a function tool, strict: false by default', ({ runtime }) => {
    const readFile = new ReadFile(runtime);
    expect(responsesTools([readFile])).toEqual([
      {
        type: 'function',
        name: 'ReadFile',
        description: readFile.description,
        parameters: readFile.parameters,
        strict: false,
      },
    ]);
  });

  test('with strict, gives the strict-mode parameters and strict: true', ({ runtime }) => {
    const set = createToolSet([new ReadFile(runtime)]);
    const [definition] = responsesTools(set, { strict: true });
    expect(definition?.strict).toBe(true);
    expect(definition?.parameters).toEqual(set.definitions({ strict: true })[0]?.parameters);
  });
});

describe('runResponsesToolCalls', () => {
  it('runs only the function calls, in order, and answers each by its call_id', async () => {
    const read = fixedTool('Read', textResult);
    const fail = fixedTool('Fail', errorResult);
    const output: ResponseOutputItem[] = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      functionCall('call_a', 'Read', '{"path":"a"}'),
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Reading.', annotations: [] }],
      },
      functionCall('call_b', 'Fail', '{}'),
      functionCall('call_c', 'Nope', '{}'),
    ];
    expect(await runResponsesToolCalls([read, fail], output)).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: 'Read 1 line.\none\n' },
      { type: 'function_call_output', call_id: 'call_b', output: 'ERROR: `x` does not exist.' },
      {
        type: 'function_call_output',
        call_id: 'call_c',
        output: 'ERROR: Tool `Nope` not found. Available tools: Read, Fail.',
      },
    ]);
    expect(read.calls).toEqual(['{"path":"a"}']);
  });

  it('gives nothing for a response without function calls', async () => {
    expect(await runResponsesToolCalls([fixedTool('Read', textResult)], [])).toEqual([]);
  });

  it('puts images in the function call output, in order, and says which media were left out', async () => {
    const [output] = await runResponsesToolCalls(
      [fixedTool('Media', mediaResult)],
      [functionCall('call_1', 'Media', '{}')],
    );
    expect(output).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'Loaded.' },
        { type: 'input_text', text: '<image path="/w/a.png">' },
        { type: 'input_image', image_url: 'data:image/png;base64,UE5H', detail: 'auto' },
        { type: 'input_text', text: '</image>' },
        { type: 'input_text', text: "[image/bmp content left out: this model's API does not take it]" },
        { type: 'input_image', image_url: 'https://files.example.invalid/b.webp', detail: 'auto' },
        { type: 'input_text', text: "[video/mp4 content left out: this model's API does not take it]" },
      ],
    });
  });
});

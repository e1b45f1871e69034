import { createToolSet } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { test } from '@kimi-tools/test-kit';
import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { errorResult, fixedTool, mediaResult, textResult } from '@kimi-tools/test-kit';
import { anthropicTools } from './anthropic-tools.js';
import { runToolUses } from './tool-results.js';

function toolUse(id: string, name: string, input: unknown): ContentBlock {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } };
}

describe('anthropicTools', () => {
  test('gives each tool its name, description and JSON Schema as input_schema', ({ runtime }) => {
    const readFile = new ReadFile(runtime);
    expect(anthropicTools(createToolSet([readFile]))).toEqual([
      { name: 'ReadFile', description: readFile.description, input_schema: readFile.parameters },
    ]);
    expect(readFile.parameters['type']).toBe('object');
  });
});

describe('runToolUses', () => {
  test('runs a real tool on the input object, numeric strings included', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'alpha\nbeta\n');
    const results = await runToolUses(
      [new ReadFile(runtime)],
      [toolUse('toolu_1', 'ReadFile', { path: 'a.txt', n_lines: '1' })],
    );
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: '1 lines read from file starting from line 1. Total lines in file: 2.\n     1\talpha\n',
        is_error: false,
      },
    ]);
  });

  it('answers each tool_use in order, skipping other blocks, with is_error on failures', async () => {
    const read = fixedTool('Read', textResult);
    const fail = fixedTool('Fail', errorResult);
    const results = await runToolUses(
      [read, fail],
      [
        { type: 'text', text: 'Let me look.', citations: null },
        toolUse('toolu_a', 'Fail', { path: 'x' }),
        toolUse('toolu_b', 'Read', { path: 'a' }),
        toolUse('toolu_c', 'Nope', {}),
      ],
    );
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'ERROR: `x` does not exist.', is_error: true },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: 'Read 1 line.\none\n', is_error: false },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_c',
        content: 'ERROR: Tool `Nope` not found. Available tools: Read, Fail.',
        is_error: true,
      },
    ]);
    expect(read.calls).toEqual([{ path: 'a' }]);
  });

  it('gives nothing for a message without tool_use', async () => {
    expect(await runToolUses([fixedTool('Read', textResult)], [])).toEqual([]);
  });

  it('sends images as image blocks in order, and says which media were left out', async () => {
    const [result] = await runToolUses([fixedTool('Media', mediaResult)], [toolUse('toolu_1', 'Media', {})]);
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'text', text: 'Loaded.' },
        { type: 'text', text: '<image path="/w/a.png">' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'UE5H' } },
        { type: 'text', text: '</image>' },
        { type: 'text', text: "[image/bmp content left out: this model's API does not take it]" },
        { type: 'image', source: { type: 'url', url: 'https://files.example.invalid/b.webp' } },
        { type: 'text', text: "[video/mp4 content left out: this model's API does not take it]" },
      ],
      is_error: false,
    });
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
    await runToolUses([tool], [toolUse('toolu_1', 'Read', {})], { signal: controller.signal });
    expect(seen).toEqual([controller.signal]);
  });
});

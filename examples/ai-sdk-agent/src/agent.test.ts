import { readFile } from 'node:fs/promises';
import { createCheckpoints, ListCheckpoints, Rewind } from '@kimi-tools/checkpoints';
import { createToolSet } from '@kimi-tools/core';
import { createAgentRuntime, fileToolsOn } from '@kimi-tools/example-file-tools';
import { test } from '@kimi-tools/test-kit';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect } from 'vitest';
import { runAgent } from './agent.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model step that calls one tool. */
function callStep(id: string, toolName: string, input: unknown): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A model step that answers. */
function textStep(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

describe('the AI SDK agent with checkpoints', () => {
  test("takes a checkpoint before each step, and the model's Rewind takes its edit back", async ({
    workspace,
    approval,
  }) => {
    await workspace.write('answer.ts', 'export const answer = 41;\n');
    const runtime = createAgentRuntime(workspace.workDir, { approval });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    const tools = createToolSet([...fileToolsOn(runtime), new ListCheckpoints(runtime), new Rewind(runtime)]);
    const model = new MockLanguageModelV3({
      doGenerate: [
        callStep('call-read', 'ReadFile', { path: 'answer.ts' }),
        callStep('call-edit', 'StrReplaceFile', { path: 'answer.ts', edit: { old: '41', new: '42' } }),
        // Checkpoint 2 was taken before the step that edited.
        callStep('call-rewind', 'Rewind', { checkpoint: '2' }),
        textStep('The answer is 41 again.'),
      ],
    });

    const answer = await runAgent({ model, tools, prompt: 'Make it 42, then take that back.', checkpoints });

    expect(answer).toBe('The answer is 41 again.');
    expect(await readFile(workspace.at('answer.ts'), 'utf8')).toBe('export const answer = 41;\n');
    const rewound = model.doGenerateCalls[3]?.prompt.at(-1);
    expect(rewound).toMatchObject({
      role: 'tool',
      content: [
        {
          toolName: 'Rewind',
          output: {
            type: 'text',
            value:
              'Rewound to checkpoint 2: 1 file changed.\n' +
              'answer.ts: modified since the checkpoint, restored\n' +
              'Checkpoint 3 holds the files as they were before this rewind: rewind to it to undo this one.',
          },
        },
      ],
    });
    // One before each of the four steps, and the rewind's own record of what it did.
    expect((await checkpoints.list()).map(({ id, label, files }) => [id, label, files])).toEqual([
      ['1', 'before step 1', [{ path: 'answer.ts', change: 'created' }]],
      ['2', 'before step 2', []],
      ['3', 'before step 3', [{ path: 'answer.ts', change: 'modified' }]],
      ['4', 'rewind to 2', [{ path: 'answer.ts', change: 'modified' }]],
      ['5', 'before step 4', []],
    ]);
    // The rewind asked approval, showing the diff back.
    expect(approval.requests.at(-1)).toMatchObject({
      sender: 'Rewind',
      description: 'Rewind 1 file to checkpoint 2: answer.ts (modified)',
    });
  });
});

import { readFile } from 'node:fs/promises';
import { it, startReplayServer, type ReplayResponse } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

// The Quick starts call a model API: here a local server replaying its answers, which the official clients reach
// through their own settings (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, the AI SDK's default provider).

const ANSWER = 'export const answer = 41;\n';

/** A snippet's run against recorded answers: what it printed last, and the requests the server got. */
async function runAgainst(
  workspace: Parameters<typeof runSnippet>[0],
  code: string,
  answers: readonly ReplayResponse[],
  options: { after: string; env?: (url: string) => NodeJS.ProcessEnv; setup?: (url: string) => string },
) {
  const server = await startReplayServer(answers);
  try {
    const run = await runSnippet(workspace, code, {
      after: options.after,
      env: options.env?.(server.url),
      setup: options.setup?.(server.url),
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    return {
      printed: JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as unknown,
      requests: server.requests,
    };
  } finally {
    await server.close();
  }
}

describe('packages/openai', async () => {
  const [quickStart] = await readmeBlocks('packages/openai/README.md');
  it('the Quick start runs one turn of the loop: the model reads a file, the messages get its result', async ({
    workspace,
  }) => {
    await workspace.write('answer.ts', ANSWER);
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-5',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'ReadFile', arguments: '{"path":"answer.ts"}' },
              },
            ],
          },
        },
      ],
    };
    const { printed, requests } = await runAgainst(workspace, quickStart!.code, [{ body: completion }], {
      after: 'console.log(JSON.stringify(messages));',
      env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'test' }),
    });
    expect(requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
    expect(printed).toMatchObject([
      { role: 'user', content: 'Fix the failing test.' },
      { role: 'assistant' },
      { role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('export const answer = 41;') },
    ]);
  });
});

describe('packages/anthropic', async () => {
  const [quickStart] = await readmeBlocks('packages/anthropic/README.md');
  it('the Quick start runs one turn of the loop: the model reads a file, the messages get its result', async ({
    workspace,
  }) => {
    await workspace.write('answer.ts', ANSWER);
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'ReadFile', input: { path: 'answer.ts' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const { printed, requests } = await runAgainst(workspace, quickStart!.code, [{ body: message }], {
      after: 'console.log(JSON.stringify(messages));',
      env: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test' }),
    });
    expect(requests.map((request) => request.path)).toEqual(['/v1/messages']);
    expect(printed).toMatchObject([
      { role: 'user', content: 'Fix the failing test.' },
      { role: 'assistant' },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] },
    ]);
    expect(JSON.stringify(printed)).toContain('export const answer = 41;');
  });
});

describe('packages/ai-sdk', async () => {
  const [quickStart, whileTheToolRuns, beforeTheToolRuns] = await readmeBlocks('packages/ai-sdk/README.md');
  const usage = {
    inputTokens: { total: 1, noCache: 1 },
    outputTokens: { total: 1, text: 1 },
  };
  const toolCall = (id: string, toolName: string, input: unknown): ReplayResponse => ({
    body: {
      content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
  });
  const text = (value: string): ReplayResponse => ({
    body: {
      content: [{ type: 'text', text: value }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  });
  // A string model id goes to the AI SDK's default provider, the AI Gateway; here one at the replay server.
  const gatewayAt = (url: string) =>
    `import { createGateway } from 'ai';\nglobalThis.AI_SDK_DEFAULT_PROVIDER = createGateway({ baseURL: '${url}/v1/ai', apiKey: 'test' });\n`;

  it('the Quick start runs the loop: the model reads a file, then answers', async ({ workspace }) => {
    await workspace.write('answer.ts', ANSWER);
    const { printed, requests } = await runAgainst(
      workspace,
      quickStart!.code,
      [toolCall('call_1', 'ReadFile', { path: 'answer.ts' }), text('The answer is 41.')],
      { after: 'console.log(JSON.stringify(text));', setup: gatewayAt },
    );
    expect(printed).toBe('The answer is 41.');
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]!.body)).toContain('export const answer = 41;');
  });

  it('the approval while the tool runs snippet runs', async ({ workspace }) => {
    const { printed } = await runAgainst(workspace, whileTheToolRuns!.code, [], {
      after: 'console.log(JSON.stringify(runtime.workDir));',
    });
    expect(printed).toBe(workspace.workDir);
  });

  it('the approval flow before the tool runs makes the edit once approved', async ({ workspace }) => {
    const file = await workspace.write('answer.ts', ANSWER);
    const { printed } = await runAgainst(
      workspace,
      beforeTheToolRuns!.code,
      [
        toolCall('call_1', 'ReadFile', { path: 'answer.ts' }),
        toolCall('call_2', 'StrReplaceFile', { path: 'answer.ts', edit: { old: '41', new: '42' } }),
        text('The answer is 42.'),
      ],
      { after: 'console.log(JSON.stringify([requests.length, second.text]));', setup: gatewayAt },
    );
    expect(printed).toEqual([1, 'The answer is 42.']);
    expect(await readFile(file, 'utf8')).toBe('export const answer = 42;\n');
  });
});

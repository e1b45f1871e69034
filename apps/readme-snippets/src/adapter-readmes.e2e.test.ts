import { access, readFile } from 'node:fs/promises';
import { it, startReplayServer, type ReplayResponse, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

// The Quick starts call a model API: here a local server replaying its answers, which the official clients reach
// through their own settings (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, the AI SDK's default provider).

const ANSWER = 'export const answer = 41;\n';

// A Quick start's model also asks to write a file outside the project: the runtime must refuse it, not write it.
const OUTSIDE = 'outside.txt';

/** WriteFile's arguments for that file, by its absolute path. */
const writeOutside = (workspace: TempWorkspace) => ({
  path: workspace.outside(OUTSIDE),
  content: 'written from outside\n',
});

/** What the model reads back: the write is refused. */
const outsideRefusal = (workspace: TempWorkspace) =>
  `ERROR: \`${workspace.outside(OUTSIDE)}\` is outside the workspace.`;

/** Whether the write outside the project reached the disk. */
const writtenOutside = (workspace: TempWorkspace) =>
  access(workspace.outside(OUTSIDE)).then(
    () => true,
    () => false,
  );

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
  it('the Quick start runs one turn of the loop: the model reads a file, the messages get its result, a write outside the project is refused', async ({
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
              {
                id: 'call_2',
                type: 'function',
                function: { name: 'WriteFile', arguments: JSON.stringify(writeOutside(workspace)) },
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
      { role: 'tool', tool_call_id: 'call_2', content: outsideRefusal(workspace) },
    ]);
    expect(await writtenOutside(workspace)).toBe(false);
  });
});

describe('packages/openai: approvals', async () => {
  const [, lockfileHunks] = await readmeBlocks('packages/openai/README.md');
  it("the lockfile rule keeps a patch's other hunks and tells the model why", async ({ workspace }) => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: a.ts',
      '+export {};',
      '*** Add File: deps.lock',
      '+x',
      '*** End Patch',
    ];
    const { printed } = await runAgainst(workspace, lockfileHunks!.code, [], {
      after: [
        "const { runChatCompletionsToolCalls } = await import('@kimi-tools/openai');",
        "const { ApplyPatch } = await import('@kimi-tools/patch');",
        `const args = JSON.stringify({ patch: ${JSON.stringify(patch.join('\n'))} });`,
        "const call = { id: 'call_1', type: 'function' as const, function: { name: 'ApplyPatch', arguments: args } };",
        'const [message] = await runChatCompletionsToolCalls([new ApplyPatch(runtime)], [call]);',
        'console.log(JSON.stringify(message!.content));',
      ].join('\n'),
    });
    const lock = workspace.at('deps.lock');
    expect(printed).toBe(
      [
        'Success. Updated the following files:',
        'A a.ts',
        'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were. User feedback: Lockfiles are written by the package manager.',
        `--- ${lock}`,
        `+++ ${lock}`,
        '@@ -0,0 +1,1 @@',
        '+x',
        'a.ts:',
        '     1\texport {};',
        '',
      ].join('\n'),
    );
    expect(await readFile(workspace.at('a.ts'), 'utf8')).toBe('export {};\n');
    await expect(readFile(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('packages/anthropic', async () => {
  const [quickStart] = await readmeBlocks('packages/anthropic/README.md');
  it('the Quick start runs one turn of the loop: the model reads a file, the messages get its result, a write outside the project is refused', async ({
    workspace,
  }) => {
    await workspace.write('answer.ts', ANSWER);
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'ReadFile', input: { path: 'answer.ts' } },
        { type: 'tool_use', id: 'toolu_2', name: 'WriteFile', input: writeOutside(workspace) },
      ],
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
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            is_error: true,
            content: outsideRefusal(workspace),
          },
        ],
      },
    ]);
    expect(JSON.stringify(printed)).toContain('export const answer = 41;');
    expect(await writtenOutside(workspace)).toBe(false);
  });
});

describe('packages/anthropic: approvals', async () => {
  const [, hunkByHunk] = await readmeBlocks('packages/anthropic/README.md');
  it('the checkbox UI keeps the hunks ticked, and the model reads the note', async ({ workspace }) => {
    const lines = Array.from({ length: 12 }, (_, index) => `const v${index + 1} = ${index + 1};`);
    const file = await workspace.write('values.ts', `${lines.join('\n')}\n`);
    const { printed } = await runAgainst(workspace, hunkByHunk!.code, [], {
      setup: () =>
        "globalThis.tickHunks = async (hunks) => ({ ids: [hunks[1].id], note: 'Leave v1 alone.' });\n",
      after: [
        "const { runToolUses } = await import('@kimi-tools/anthropic');",
        "const { ReadFile } = await import('@kimi-tools/read');",
        "const { StrReplaceFile } = await import('@kimi-tools/replace');",
        'const tools = [new ReadFile(runtime), new StrReplaceFile(runtime)];',
        "const use = (id: string, name: string, input: object) => ({ type: 'tool_use' as const, id, name, input });",
        "await runToolUses(tools, [use('toolu_1', 'ReadFile', { path: 'values.ts' })]);",
        "const edit = [{ old: 'v1 = 1', new: 'v1 = 10' }, { old: 'v12 = 12', new: 'v12 = 120' }];",
        "const [result] = await runToolUses(tools, [use('toolu_2', 'StrReplaceFile', { path: 'values.ts', edit })]);",
        'console.log(JSON.stringify(result!.content));',
      ].join('\n'),
    });
    expect(printed).toContain(
      'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were. User feedback: Leave v1 alone.',
    );
    expect(await readFile(file, 'utf8')).toBe(`${[...lines.slice(0, 11), 'const v12 = 120;'].join('\n')}\n`);
  });
});

describe('packages/ai-sdk', async () => {
  const [quickStart, whileTheToolRuns, editedVersion, beforeTheToolRuns] =
    await readmeBlocks('packages/ai-sdk/README.md');
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

  it('the Quick start runs the loop: the model reads a file, a write outside the project is refused, then it answers', async ({
    workspace,
  }) => {
    await workspace.write('answer.ts', ANSWER);
    const { printed, requests } = await runAgainst(
      workspace,
      quickStart!.code,
      [
        toolCall('call_1', 'ReadFile', { path: 'answer.ts' }),
        toolCall('call_2', 'WriteFile', writeOutside(workspace)),
        text('The answer is 41.'),
      ],
      { after: 'console.log(JSON.stringify(text));', setup: gatewayAt },
    );
    expect(printed).toBe('The answer is 41.');
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[1]!.body)).toContain('export const answer = 41;');
    expect(JSON.stringify(requests[2]!.body)).toContain(
      JSON.stringify(outsideRefusal(workspace)).slice(1, -1),
    );
    expect(await writtenOutside(workspace)).toBe(false);
  });

  it('the approval while the tool runs snippet runs', async ({ workspace }) => {
    const { printed } = await runAgainst(workspace, whileTheToolRuns!.code, [], {
      after: 'console.log(JSON.stringify(runtime.workDir));',
    });
    expect(printed).toBe(workspace.workDir);
  });

  it("the editor UI writes the user's version, and the model reads how it differs", async ({ workspace }) => {
    const file = await workspace.write('answer.ts', ANSWER);
    const { printed } = await runAgainst(workspace, editedVersion!.code, [], {
      setup: () => "globalThis.editProposal = async (path, proposal) => proposal.replace('42', '43');\n",
      after: [
        "const { aiSdkTools } = await import('@kimi-tools/ai-sdk');",
        "const { ReadFile } = await import('@kimi-tools/read');",
        "const { WriteFile } = await import('@kimi-tools/write');",
        'const tools = aiSdkTools([new ReadFile(runtime), new WriteFile(runtime)]);',
        "const options = { toolCallId: 'call_1', messages: [] };",
        "await tools.ReadFile!.execute!({ path: 'answer.ts' }, options);",
        "const result = await tools.WriteFile!.execute!({ path: 'answer.ts', content: 'export const answer = 42;\\n' }, options);",
        'console.log(JSON.stringify(result));',
      ].join('\n'),
    });
    expect(printed).toMatchObject({
      isError: false,
      message: [
        'File successfully overwritten. Current size: 26 bytes.',
        "The user edited your proposal before accepting it, so what was written differs from what you sent. Build on the user's version and do not undo the user's edits.",
        'From your proposal to what was written:',
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -1,1 +1,1 @@',
        '-export const answer = 42;',
        '+export const answer = 43;',
      ].join('\n'),
    });
    expect(await readFile(file, 'utf8')).toBe('export const answer = 43;\n');
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

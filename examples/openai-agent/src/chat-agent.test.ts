import { readFile } from 'node:fs/promises';
import { createFileTools } from '@kimi-tools/example-file-tools';
import {
  agentImageTexts,
  agentPictureBase64,
  agentScanTexts,
  agentScanImage,
  agentScenario,
  startReplayServer,
  test,
} from '@kimi-tools/test-kit';
import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import recorded from './__fixtures__/chat-completions.json' with { type: 'json' };
import { runChatAgent } from './chat-agent.js';

const PROMPT = 'Make the answer 42, then tell me what the picture shows.';
const TOOL_NAMES = ['ReadFile', 'WriteFile', 'StrReplaceFile', 'ApplyPatch', 'Glob', 'Grep', 'ReadMediaFile'];

describe('the chat completions agent, with the official client against recorded responses', () => {
  test('runs the tool calls and sends back exactly the tool messages, then the picture and the scanned page', async ({
    workspace,
    approval,
    onTestFinished,
  }) => {
    await workspace.writeAll(agentScenario.files);
    const server = await startReplayServer(recorded.map((body) => ({ body })));
    onTestFinished(() => server.close());
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });

    const answer = await runChatAgent({
      client,
      model: 'gpt-5',
      tools: createFileTools(workspace.workDir, { approval }),
      prompt: PROMPT,
    });

    expect(answer).toBe('The answer is 42 now, and the picture is a red square.');
    expect(await readFile(workspace.at('answer.ts'), 'utf8')).toBe(agentScenario.editedSource);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(4).fill('POST /v1/chat/completions'),
    );
    const bodies = server.requests.map((request) => request.body as OpenAI.ChatCompletionCreateParams);
    const [first, second, third, fourth] = bodies;
    expect(first?.messages).toEqual([{ role: 'user', content: PROMPT }]);
    expect(first?.tools?.map((tool) => tool.type === 'function' && tool.function.name)).toEqual(TOOL_NAMES);
    expect(
      first?.tools?.every((tool) => tool.type === 'function' && tool.function.strict === undefined),
    ).toBe(true);

    // Each request is the one before, the assistant message it got, and what the tools gave.
    const [message, open, close] = agentImageTexts(workspace);
    const scan = agentScanTexts(workspace);
    expect(second?.messages).toEqual([
      ...first!.messages,
      recorded[0]!.choices[0]!.message,
      { role: 'tool', tool_call_id: 'call_Qm1uR8ReadA', content: agentScenario.texts.read },
      { role: 'tool', tool_call_id: 'call_Vx3pL0Image', content: `${message}\n${open}\n${close}` },
      { role: 'tool', tool_call_id: 'call_Pf8nW3ScanB', content: scan.join('\n') },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Media from tool call call_Vx3pL0Image:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${agentPictureBase64}` } },
          { type: 'text', text: 'Media from tool call call_Pf8nW3ScanB:' },
          { type: 'image_url', image_url: { url: agentScanImage.dataUrl } },
        ],
      },
    ]);
    expect(third?.messages).toEqual([
      ...second!.messages,
      recorded[1]!.choices[0]!.message,
      { role: 'tool', tool_call_id: 'call_Hd7sK2BadEd', content: agentScenario.texts.badEdit },
    ]);
    expect(fourth?.messages).toEqual([
      ...third!.messages,
      recorded[2]!.choices[0]!.message,
      { role: 'tool', tool_call_id: 'call_Tn5wJ9EditA', content: agentScenario.texts.edit },
      {
        role: 'tool',
        tool_call_id: 'call_Zc4fG6Unkno',
        content: `ERROR: Tool \`DeleteFile\` not found. Available tools: ${TOOL_NAMES.join(', ')}.`,
      },
    ]);
    // The change was approved once, through the runtime's approval.
    expect(approval.requests.map((request) => request.description)).toEqual([
      `Edit file \`${workspace.at('answer.ts')}\``,
    ]);
  });
});

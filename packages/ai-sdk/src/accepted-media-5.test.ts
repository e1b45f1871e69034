import { createAnthropic } from '@ai-sdk/anthropic-v2';
import { createGoogleGenerativeAI } from '@ai-sdk/google-v2';
import { startReplayServer } from '@kimi-tools/test-kit';
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type ToolSet } from 'ai-v5';
import { describe, expect, vi } from 'vitest';
import {
  clipBase64,
  clipText,
  iconLeftOutText,
  mediaScenario,
  mediaTest as test,
} from './__fixtures__/media-scenario.js';
import {
  anthropicRefusal,
  anthropicText,
  anthropicToolUses,
  geminiFunctionCalls,
  geminiRefusal,
  geminiText,
} from './__fixtures__/model-apis.js';
import { DEFAULT_ACCEPTED_MEDIA_TYPES, type AiSdkTool } from './ai-sdk-tools.js';

// The adapter imports `ai`: in this file that is AI SDK 5, as in a project that has `ai@5` installed.
vi.mock('ai', () => import('ai-v5'));

const { calls, prompts, answers } = mediaScenario;

/** The scenario's two turns with AI SDK 5: the second sends the first's messages back, as a chat does. */
async function twoTurns(model: LanguageModel, tools: Record<string, AiSdkTool>): Promise<string[]> {
  // Typed against the `ai` this repository builds with (6); a project on AI SDK 5 sees its own `Tool` type.
  const toolSet = tools as unknown as ToolSet;
  const messages: ModelMessage[] = [{ role: 'user', content: prompts[0] }];
  const first = await generateText({
    model,
    tools: toolSet,
    messages,
    stopWhen: stepCountIs(5),
    maxRetries: 0,
  });
  messages.push(...first.response.messages, { role: 'user', content: prompts[1] });
  const second = await generateText({
    model,
    tools: toolSet,
    messages,
    stopWhen: stepCountIs(5),
    maxRetries: 0,
  });
  return [first.text, second.text];
}

describe('aiSdkTools: media a model does not take, through AI SDK 5 providers', () => {
  test('sends Claude a BMP and a video as the left-out text by default, so the conversation goes on', async ({
    workspace,
    mediaTools,
    onTestFinished,
  }) => {
    const server = await startReplayServer(
      [
        { body: anthropicToolUses(calls) },
        { body: anthropicText(answers[0]) },
        { body: anthropicText(answers[1]) },
      ],
      { refuse: anthropicRefusal },
    );
    onTestFinished(() => server.close());
    const model = createAnthropic({ apiKey: 'test', baseURL: `${server.url}/v1` })('claude-sonnet-4-5');

    expect(await twoTurns(model, mediaTools())).toEqual(answers);

    const bodies = server.requests.map((request) => request.body as { messages: unknown[] });
    expect(bodies[1]?.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_icon', content: iconLeftOutText(workspace) },
        { type: 'tool_result', tool_use_id: 'call_clip', content: clipText(workspace, { leftOut: true }) },
      ],
    });
    expect(bodies[2]?.messages.slice(0, 3)).toEqual(bodies[1]?.messages);
    expect(server.requests).toHaveLength(3);
  });

  test('sends Gemini the video when acceptedMediaTypes names video/*, and still leaves the BMP out', async ({
    workspace,
    mediaTools,
    onTestFinished,
  }) => {
    const server = await startReplayServer(
      [
        { body: geminiFunctionCalls(calls) },
        { body: geminiText(answers[0]) },
        { body: geminiText(answers[1]) },
      ],
      { refuse: geminiRefusal },
    );
    onTestFinished(() => server.close());
    const google = createGoogleGenerativeAI({ apiKey: 'test', baseURL: `${server.url}/v1beta` });
    const tools = mediaTools({ acceptedMediaTypes: [...DEFAULT_ACCEPTED_MEDIA_TYPES, 'video/*'] });

    expect(await twoTurns(google('gemini-3-pro-preview'), tools)).toEqual(answers);

    const bodies = server.requests.map((request) => request.body as { contents: unknown[] });
    const response = (content: string) => ({ name: 'ReadMediaFile', content });
    expect(bodies[1]?.contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call_icon',
            name: 'ReadMediaFile',
            response: response(iconLeftOutText(workspace)),
          },
        },
        {
          functionResponse: {
            id: 'call_clip',
            name: 'ReadMediaFile',
            response: response(clipText(workspace, { leftOut: false })),
            parts: [{ inlineData: { mimeType: 'video/mp4', data: clipBase64 } }],
          },
        },
      ],
    });
    expect(bodies[2]?.contents.slice(0, 3)).toEqual(bodies[1]?.contents);
    expect(server.requests).toHaveLength(3);
  });
});

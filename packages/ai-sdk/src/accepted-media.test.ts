import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { startReplayServer } from '@kimi-tools/test-kit';
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
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
import { aiSdkTools, DEFAULT_ACCEPTED_MEDIA_TYPES } from './ai-sdk-tools.js';

const { calls, prompts, answers } = mediaScenario;

/** The scenario's two turns with AI SDK 6: the second sends the first's messages back, as a chat does. */
async function twoTurns(model: LanguageModel, tools: ToolSet): Promise<string[]> {
  const messages: ModelMessage[] = [{ role: 'user', content: prompts[0] }];
  const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5), maxRetries: 0 });
  messages.push(...first.response.messages, { role: 'user', content: prompts[1] });
  const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5), maxRetries: 0 });
  return [first.text, second.text];
}

describe('aiSdkTools: media a model does not take, through AI SDK 6 providers', () => {
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
    // The next turn carries the results again, and goes through as well.
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

  it('throws when acceptedMediaTypes is not a list of media types', () => {
    expect(() => aiSdkTools([], { acceptedMediaTypes: ['video/*', 'mp4'] })).toThrow(
      new Error(
        'aiSdkTools: acceptedMediaTypes must hold only media types (type/subtype, type/* or */*), got "mp4".',
      ),
    );
    expect(() => aiSdkTools([], { acceptedMediaTypes: 'video/*' as unknown as string[] })).toThrow(
      new Error('aiSdkTools: acceptedMediaTypes must be a list of media types, got string.'),
    );
  });
});

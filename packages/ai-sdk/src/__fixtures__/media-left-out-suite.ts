import { startReplayServer } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import { DEFAULT_ACCEPTED_MEDIA_TYPES, type AiSdkTool } from '../ai-sdk-tools.js';
import { clipBase64, clipText, iconLeftOutText, mediaScenario, mediaTest as test } from './media-scenario.js';
import {
  anthropicRefusal,
  anthropicText,
  anthropicToolUses,
  geminiFunctionCalls,
  geminiRefusal,
  geminiText,
} from './model-apis.js';

const { calls, answers } = mediaScenario;

/** One major version of the AI SDK and its providers, as a project that has it installed uses them. */
export interface AiSdkUnderTest<Model> {
  /** The scenario's two turns: the second sends the first's messages back, as a chat does. */
  twoTurns(model: Model, tools: Record<string, AiSdkTool>): Promise<string[]>;
  /** A Claude model of the Anthropic provider, talking to `baseURL`. */
  claude(baseURL: string): Model;
  /** A Gemini model of the Google provider, talking to `baseURL`. */
  gemini(baseURL: string): Model;
}

/**
 * The tests of media a model does not take, the same for every version of the AI SDK: each provider's API refuses a
 * request holding such media (the replay server answers as it does), and the result stays in the conversation.
 */
export function mediaLeftOutTests<Model>(sdk: AiSdkUnderTest<Model>): void {
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

    expect(await sdk.twoTurns(sdk.claude(`${server.url}/v1`), mediaTools())).toEqual(answers);

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
    const tools = mediaTools({ acceptedMediaTypes: [...DEFAULT_ACCEPTED_MEDIA_TYPES, 'video/*'] });

    expect(await sdk.twoTurns(sdk.gemini(`${server.url}/v1beta`), tools)).toEqual(answers);

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
}

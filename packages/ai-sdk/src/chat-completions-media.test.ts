import { createOpenAI } from '@ai-sdk/openai';
import {
  agentImageTexts,
  agentPictureBase64,
  agentScenario,
  startReplayServer,
  type ReplayServer,
} from '@kimi-tools/test-kit';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { describe, expect } from 'vitest';
import { agentTest as test } from './__fixtures__/agent-tools.js';
import { aiSdkTools } from './ai-sdk-tools.js';

// OpenAI's chat completions API takes text only in a `role: 'tool'` message, and the AI SDK's chat completions models
// (`openai.chat(...)`, and the providers on @ai-sdk/openai-compatible) put a tool result's content parts there as
// JSON text: media reach the model as base64 characters, unless acceptedMediaTypes is empty.

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/** A chat completion whose assistant message calls ReadMediaFile on the picture, then one that answers. */
const answers = [
  {
    body: {
      id: 'chatcmpl-image',
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
                id: 'call_image',
                type: 'function',
                function: {
                  name: 'ReadMediaFile',
                  arguments: JSON.stringify(agentScenario.calls.image.input),
                },
              },
            ],
          },
        },
      ],
      usage,
    },
  },
  {
    body: {
      id: 'chatcmpl-text',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-5',
      choices: [
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'A red square.' } },
      ],
      usage,
    },
  },
];

/** Runs the picture's turn on a chat completions model and gives the tool message the model was sent. */
async function toolMessageSent(server: ReplayServer, tools: ToolSet): Promise<unknown> {
  const model = createOpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` }).chat('gpt-5');
  const { text } = await generateText({
    model,
    tools,
    prompt: 'What is in picture.png?',
    stopWhen: stepCountIs(5),
    maxRetries: 0,
  });
  expect(text).toBe('A red square.');
  const { messages } = server.requests[1]?.body as { messages: unknown[] };
  return messages.at(-1);
}

describe('aiSdkTools on a chat completions model of the AI SDK', () => {
  test('by default, sends the picture into the tool message as JSON text, base64 and all', async ({
    files,
    tools,
    onTestFinished,
  }) => {
    const server = await startReplayServer(answers);
    onTestFinished(() => server.close());

    const [message, open, close] = agentImageTexts(files);
    expect(await toolMessageSent(server, aiSdkTools(tools))).toEqual({
      role: 'tool',
      tool_call_id: 'call_image',
      content: JSON.stringify([
        { type: 'text', text: message },
        { type: 'text', text: open },
        { type: 'image-data', data: agentPictureBase64, mediaType: 'image/png' },
        { type: 'text', text: close },
      ]),
    });
  });

  test('with acceptedMediaTypes: [], sends the text with the picture left out where it stood', async ({
    files,
    tools,
    onTestFinished,
  }) => {
    const server = await startReplayServer(answers);
    onTestFinished(() => server.close());

    const [message, open, close] = agentImageTexts(files);
    expect(await toolMessageSent(server, aiSdkTools(tools, { acceptedMediaTypes: [] }))).toEqual({
      role: 'tool',
      tool_call_id: 'call_image',
      content: [message, open, "[image/png content left out: this model's API does not take it]", close].join(
        '\n',
      ),
    });
  });
});

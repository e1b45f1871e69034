import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { mediaLeftOutTests } from './__fixtures__/media-left-out-suite.js';
import { mediaScenario } from './__fixtures__/media-scenario.js';
import { aiSdkTools } from './ai-sdk-tools.js';

const { prompts } = mediaScenario;

/** The scenario's two turns with AI SDK 6: the second sends the first's messages back, as a chat does. */
async function twoTurns(model: LanguageModel, tools: ToolSet): Promise<string[]> {
  const messages: ModelMessage[] = [{ role: 'user', content: prompts[0] }];
  const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5), maxRetries: 0 });
  messages.push(...first.response.messages, { role: 'user', content: prompts[1] });
  const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5), maxRetries: 0 });
  return [first.text, second.text];
}

describe('aiSdkTools: media a model does not take, through AI SDK 6 providers', () => {
  mediaLeftOutTests({
    twoTurns,
    claude: (baseURL) => createAnthropic({ apiKey: 'test', baseURL })('claude-sonnet-4-5'),
    gemini: (baseURL) => createGoogleGenerativeAI({ apiKey: 'test', baseURL })('gemini-3-pro-preview'),
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

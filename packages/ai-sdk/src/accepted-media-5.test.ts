import { createAnthropic } from '@ai-sdk/anthropic-v2';
import { createGoogleGenerativeAI } from '@ai-sdk/google-v2';
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type ToolSet } from 'ai-v5';
import { describe, vi } from 'vitest';
import { mediaLeftOutTests } from './__fixtures__/media-left-out-suite.js';
import { mediaScenario } from './__fixtures__/media-scenario.js';
import type { AiSdkTool } from './ai-sdk-tools.js';

// The adapter imports `ai`: in this file that is AI SDK 5, as in a project that has `ai@5` installed.
vi.mock('ai', () => import('ai-v5'));

const { prompts } = mediaScenario;

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
  mediaLeftOutTests({
    twoTurns,
    claude: (baseURL) => createAnthropic({ apiKey: 'test', baseURL })('claude-sonnet-4-5'),
    gemini: (baseURL) => createGoogleGenerativeAI({ apiKey: 'test', baseURL })('gemini-3-pro-preview'),
  });
});

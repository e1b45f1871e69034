import { aiSdkTools } from '@kimi-tools/ai-sdk';
import type { ToolSet } from '@kimi-tools/core';
import { generateText, stepCountIs, type LanguageModel } from 'ai';

/** What {@link runAgent} needs. */
export interface AgentOptions {
  model: LanguageModel;
  tools: ToolSet;
  prompt: string;
  /** Steps (model calls) before stopping (default 30). */
  maxSteps?: number;
}

/**
 * An agent loop on the AI SDK: `generateText` runs the tools the model calls and calls the model again with their
 * results, until it answers without a tool call. Resolves to that answer.
 */
export async function runAgent({ model, tools, prompt, maxSteps = 30 }: AgentOptions): Promise<string> {
  const result = await generateText({
    model,
    tools: aiSdkTools(tools),
    prompt,
    stopWhen: stepCountIs(maxSteps),
  });
  return result.text;
}

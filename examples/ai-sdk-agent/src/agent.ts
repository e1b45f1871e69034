import { aiSdkTools } from '@kimi-tools/ai-sdk';
import type { Checkpoints } from '@kimi-tools/checkpoints';
import type { ToolSet } from '@kimi-tools/core';
import { generateText, stepCountIs, type LanguageModel } from 'ai';

/** What {@link runAgent} needs. */
export interface AgentOptions {
  model: LanguageModel;
  tools: ToolSet;
  prompt: string;
  /** Steps (model calls) before stopping (default 30). */
  maxSteps?: number;
  /** The runtime's checkpoints: one is taken before each step, so the model (with Rewind) or you can go back to it. */
  checkpoints?: Pick<Checkpoints, 'create'>;
}

/**
 * An agent loop on the AI SDK: `generateText` runs the tools the model calls and calls the model again with their
 * results, until it answers without a tool call. With `checkpoints`, the workspace is recorded before each step
 * (labelled `before step {n}`). Resolves to the answer.
 */
export async function runAgent({
  model,
  tools,
  prompt,
  maxSteps = 30,
  checkpoints,
}: AgentOptions): Promise<string> {
  const result = await generateText({
    model,
    tools: aiSdkTools(tools),
    prompt,
    stopWhen: stepCountIs(maxSteps),
    // Called before each model call, once the previous step's tools have run: the step's starting point.
    prepareStep: async ({ stepNumber }) => {
      await checkpoints?.create(`before step ${stepNumber + 1}`);
      return undefined;
    },
  });
  return result.text;
}

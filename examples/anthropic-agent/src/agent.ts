import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { anthropicTools, runToolUses } from '@kimi-tools/anthropic';
import type { ToolSet } from '@kimi-tools/core';

/** What {@link runAgent} needs. */
export interface AgentOptions {
  client: Anthropic;
  model: string;
  tools: ToolSet;
  prompt: string;
  /** Model turns before giving up (default 30). */
  maxTurns?: number;
  /** Most tokens per answer (default 8192). */
  maxTokens?: number;
}

/**
 * An agent loop on the messages API: send the conversation and the tools, run the model's `tool_use` blocks, send
 * their `tool_result` blocks back as the next user message, and go on until the model stops for another reason
 * than a tool call. Resolves to the text of its last message.
 */
export async function runAgent({
  client,
  model,
  tools,
  prompt,
  maxTurns = 30,
  maxTokens = 8192,
}: AgentOptions): Promise<string> {
  const messages: MessageParam[] = [{ role: 'user', content: prompt }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const message = await client.messages.create({
      model,
      max_tokens: maxTokens,
      messages,
      tools: anthropicTools(tools),
    });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') {
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    }
    messages.push({ role: 'user', content: await runToolUses(tools, message.content) });
  }
  throw new Error(`The model was still calling tools after ${maxTurns} turns.`);
}

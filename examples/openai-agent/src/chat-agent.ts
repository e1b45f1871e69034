import type { ToolSet } from '@kimi-tools/core';
import { chatCompletionsTools, runChatCompletionsToolCalls } from '@kimi-tools/openai';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** What {@link runChatAgent} needs. */
export interface AgentOptions {
  client: OpenAI;
  model: string;
  tools: ToolSet;
  prompt: string;
  /** Model turns before giving up (default 30). */
  maxTurns?: number;
}

/**
 * An agent loop on chat completions: send the conversation and the tools, run the tool calls the model makes, append
 * their messages, and go on until the model answers without calling a tool. Resolves to that answer.
 */
export async function runChatAgent({
  client,
  model,
  tools,
  prompt,
  maxTurns = 30,
}: AgentOptions): Promise<string> {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const completion = await client.chat.completions.create({
      model,
      messages,
      tools: chatCompletionsTools(tools),
    });
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('The model sent no message.');
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ?? '';
    messages.push(...(await runChatCompletionsToolCalls(tools, message.tool_calls)));
  }
  throw new Error(`The model was still calling tools after ${maxTurns} turns.`);
}

import { modelText, toModelContent, type CallOptions, type ModelContent } from '@kimi-tools/core';
import { keepAcceptedMedia, toolSetOf, type ToolsOrSet } from '@kimi-tools/core/toolkit';
import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { imageUrl, openaiAccepts } from './media-parts.js';

/** The text before a call's images in the user message that carries them: `Media from tool call {id}:`. */
export function mediaFromToolCallText(toolCallId: string): string {
  return `Media from tool call ${toolCallId}:`;
}

/** Options of the tool definitions. */
export interface OpenAIToolsOptions {
  /**
   * Strict function calling (`strict: true`, default `false`): the parameters in their strict-mode form (every
   * property required, optional ones nullable, no additional properties). The tools read `null` as "left out".
   */
  strict?: boolean;
}

/** The tools as chat completions `tools`: `client.chat.completions.create({ model, messages, tools })`. */
export function chatCompletionsTools(
  tools: ToolsOrSet,
  options: OpenAIToolsOptions = {},
): ChatCompletionFunctionTool[] {
  const strict = options.strict === true;
  return toolSetOf(tools)
    .definitions({ strict })
    .map((definition) => ({
      type: 'function',
      function: {
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        ...(strict ? { strict: true } : {}),
      },
    }));
}

function callNameAndArguments(call: ChatCompletionMessageToolCall): [string, string] {
  return call.type === 'function'
    ? [call.function.name, call.function.arguments]
    : [call.custom.name, call.custom.input];
}

/**
 * Runs the tool calls of an assistant message (`message.tool_calls`; none gives no messages) and returns the
 * messages to append after it: one `role: 'tool'` message per call, in the calls' order, with the call's
 * `tool_call_id` and the text of core's rendering of its result; then, when results hold images (a tool message
 * takes text only), one `role: 'user'` message with them, each call's images after `Media from tool call {id}:`.
 * Calls run in parallel; this never throws (an unknown tool or bad arguments are results the model reads).
 */
export async function runChatCompletionsToolCalls(
  tools: ToolsOrSet,
  toolCalls: readonly ChatCompletionMessageToolCall[] | null | undefined,
  options: CallOptions = {},
): Promise<ChatCompletionMessageParam[]> {
  const set = toolSetOf(tools);
  const calls = toolCalls ?? [];
  const contents: ModelContent[] = await Promise.all(
    calls.map(async (call) => {
      const [name, args] = callNameAndArguments(call);
      return keepAcceptedMedia(toModelContent(await set.call(name, args, options)), openaiAccepts);
    }),
  );
  const messages: ChatCompletionMessageParam[] = calls.map((call, index) => ({
    role: 'tool',
    tool_call_id: call.id,
    content: modelText(contents[index]!),
  }));
  const media: ChatCompletionContentPart[] = [];
  calls.forEach((call, index) => {
    const images = contents[index]!.parts.flatMap((part) => (part.type === 'text' ? [] : [part]));
    if (images.length === 0) return;
    media.push({ type: 'text', text: mediaFromToolCallText(call.id) });
    for (const image of images) media.push({ type: 'image_url', image_url: { url: imageUrl(image) } });
  });
  if (media.length > 0) messages.push({ role: 'user', content: media });
  return messages;
}

import { modelText, toModelContent, type CallOptions, type ModelContent } from '@kimi-tools/core';
import { keepAcceptedMedia, toolSetOf, type ToolsOrSet } from '@kimi-tools/core/toolkit';
import type {
  FunctionTool,
  ResponseFunctionCallOutputItem,
  ResponseInputItem,
  ResponseOutputItem,
} from 'openai/resources/responses/responses';
import type { OpenAIToolsOptions } from './chat-completions.js';
import { imageUrl, openaiAccepts } from './media-parts.js';

/** The tools as responses API `tools`: `client.responses.create({ model, input, tools })`. */
export function responsesTools(tools: ToolsOrSet, options: OpenAIToolsOptions = {}): FunctionTool[] {
  const strict = options.strict === true;
  return toolSetOf(tools)
    .definitions({ strict })
    .map((definition) => ({
      type: 'function',
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
      strict,
    }));
}

/** A result's `output`: its text, or, when it holds images, its text and image parts in their order. */
function callOutput(content: ModelContent): string | ResponseFunctionCallOutputItem[] {
  if (content.parts.every((part) => part.type === 'text')) return modelText(content);
  return content.parts.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: imageUrl(part), detail: 'auto' },
  );
}

/**
 * Runs the `function_call` items of a response's `output` (other items are skipped) and returns the
 * `function_call_output` items to add to the next request's `input`, one per call in order, with the call's
 * `call_id`: the text of core's rendering of the result, or its text and images (the responses API takes images in
 * a function call's output). Calls run in parallel; this never throws.
 */
export async function runResponsesToolCalls(
  tools: ToolsOrSet,
  output: readonly ResponseOutputItem[],
  options: CallOptions = {},
): Promise<ResponseInputItem.FunctionCallOutput[]> {
  const set = toolSetOf(tools);
  const calls = output.flatMap((item) => (item.type === 'function_call' ? [item] : []));
  return Promise.all(
    calls.map(async (call) => {
      const content = keepAcceptedMedia(
        toModelContent(await set.call(call.name, call.arguments, options)),
        openaiAccepts,
      );
      return { type: 'function_call_output', call_id: call.call_id, output: callOutput(content) };
    }),
  );
}

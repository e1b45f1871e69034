import { toModelContent, type ToolReturnValue } from '@kimi-tools/core';
import {
  acceptsMediaTypes,
  keepAcceptedMedia,
  mediaTypesOption,
  toolSetOf,
  type ToolsOrSet,
} from '@kimi-tools/core/toolkit';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { toToolResultOutput } from './model-output.js';

/**
 * The media types {@link aiSdkTools} sends a model unless told otherwise: the images every major provider's API takes
 * in a tool result (PNG, JPEG and WebP; Gemini refuses GIF), and PDFs, which the SDK's providers send as documents.
 */
export const DEFAULT_ACCEPTED_MEDIA_TYPES: readonly string[] = Object.freeze([
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
]);

/** One tool of {@link aiSdkTools}: any input (the tool validates it), the tool's whole result as its output. */
export type AiSdkTool = Tool<unknown, ToolReturnValue>;

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /**
   * AI SDK 6's tool approval: called before each call, `true` makes `generateText`/`streamText` stop with a
   * `tool-approval-request` instead of running the tool. Leave it out to let the runtime's approval ask (with the
   * exact diff) while the tool runs; see the README for when to use which. Ignored by AI SDK 5, which has no approval.
   */
  needsApproval?: (toolName: string, input: unknown) => boolean | PromiseLike<boolean>;
  /**
   * The media types the model takes in a tool result (`image/gif`, `video/*` for every video, `*\/*` for all), default
   * {@link DEFAULT_ACCEPTED_MEDIA_TYPES}. Any other media part (a BMP, a video) is sent as the text `[{mediaType}
   * content left out: this model's API does not take it]`: the provider's API would refuse the whole request, and
   * every later one, since the result stays in the conversation. `[]` for a chat completions model (`openai.chat()`,
   * `@ai-sdk/openai-compatible`), which the SDK sends a result's media as base64 text.
   */
  acceptedMediaTypes?: readonly string[];
}

/**
 * Whether `toModelOutput` was called by AI SDK 6 (one options object with the call's id, input and output) or by
 * AI SDK 5 (the output alone, here always a ToolReturnValue, which has no `toolCallId`).
 */
function isV6Call(argument: unknown): argument is { output: ToolReturnValue } {
  return (
    typeof argument === 'object' && argument !== null && 'toolCallId' in argument && 'output' in argument
  );
}

/**
 * The tools as an AI SDK `ToolSet` (AI SDK 5 and 6), keyed by tool name: `generateText({ model, tools:
 * aiSdkTools(tools), ... })`. Each tool's JSON Schema is passed as is, unvalidated by the SDK, so the tool's own
 * validation, coercion and messages apply; `execute` runs it with the SDK's abort signal and returns its whole
 * result (brief, diff blocks and extras are there for your user interface); the model is sent core's rendering of it
 * through `toModelOutput`: the text, media of the types the model takes as media parts (others as a text saying they
 * were left out), and a failed call as an error.
 */
export function aiSdkTools(tools: ToolsOrSet, options: AiSdkToolsOptions = {}): Record<string, AiSdkTool> {
  const set = toolSetOf(tools);
  const { needsApproval } = options;
  const accepts = acceptsMediaTypes(
    mediaTypesOption(
      'aiSdkTools',
      'acceptedMediaTypes',
      options.acceptedMediaTypes,
      DEFAULT_ACCEPTED_MEDIA_TYPES,
    ),
  );
  const result: Record<string, AiSdkTool> = {};
  for (const definition of set.definitions()) {
    const name = definition.name;
    result[name] = tool<unknown, ToolReturnValue>({
      description: definition.description,
      inputSchema: jsonSchema(definition.parameters as JSONSchema7),
      execute: (input, { abortSignal }) => set.call(name, input, abortSignal ? { signal: abortSignal } : {}),
      // AI SDK 5 passes the output alone, AI SDK 6 an object holding it: the one function serves both.
      toModelOutput: (argument: unknown) => {
        const v6 = isV6Call(argument);
        const output = (v6 ? argument.output : argument) as ToolReturnValue;
        return toToolResultOutput(keepAcceptedMedia(toModelContent(output), accepts), v6 ? 6 : 5);
      },
      ...(needsApproval ? { needsApproval: (input: unknown) => needsApproval(name, input) } : {}),
    });
  }
  return result;
}

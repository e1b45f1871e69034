import { toModelContent, type ToolReturnValue } from '@kimi-tools/core';
import { toolSetOf, type ToolsOrSet } from '@kimi-tools/core/toolkit';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { toToolResultOutput } from './model-output.js';

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
 * through `toModelOutput`: the text, images and videos as media parts, and a failed call as an error.
 */
export function aiSdkTools(tools: ToolsOrSet, options: AiSdkToolsOptions = {}): Record<string, AiSdkTool> {
  const set = toolSetOf(tools);
  const { needsApproval } = options;
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
        return toToolResultOutput(toModelContent(output), v6 ? 6 : 5);
      },
      ...(needsApproval ? { needsApproval: (input: unknown) => needsApproval(name, input) } : {}),
    });
  }
  return result;
}

import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import type { PlaygroundTool } from './file-tools.js';
import { fillPlaceholdersInJson, type Placeholders } from './placeholders.js';

/**
 * The JSON text of a call's arguments, as a model would send it: the script's text as is, or its object
 * serialised, with `{{workdir}}` / `{{outside}}` filled in.
 */
export function argumentsText(
  args: string | Record<string, unknown> | undefined,
  values: Placeholders,
): string {
  const text = args === undefined ? '{}' : typeof args === 'string' ? args : JSON.stringify(args);
  return fillPlaceholdersInJson(text, values);
}

/**
 * Does what an agent loop does with a model's tool call: parses the JSON arguments and calls the named tool. A
 * malformed call becomes an error result for the model, like any tool error.
 */
export async function invokeTool(
  tools: ReadonlyMap<string, PlaygroundTool>,
  name: string,
  jsonText: string,
  signal?: AbortSignal,
): Promise<ToolReturnValue> {
  const tool = tools.get(name);
  if (!tool) {
    return toolError({
      message: `Tool \`${name}\` not found. Available tools: ${[...tools.keys()].join(', ')}.`,
      brief: 'Tool not found',
    });
  }
  let args: unknown;
  try {
    args = JSON.parse(jsonText);
  } catch (error) {
    return toolError({
      message: `Error parsing JSON arguments: ${(error as Error).message}`,
      brief: 'Invalid arguments',
    });
  }
  return tool.call(args, { signal });
}

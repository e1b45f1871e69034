import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { toolSetOf, type ToolsOrSet } from '@kimi-tools/core/toolkit';

/** The tools as messages API `tools`: `client.messages.create({ model, max_tokens, messages, tools })`. */
export function anthropicTools(tools: ToolsOrSet): Tool[] {
  return toolSetOf(tools)
    .definitions()
    .map((definition) => ({
      name: definition.name,
      description: definition.description,
      input_schema: definition.parameters as Tool.InputSchema,
    }));
}

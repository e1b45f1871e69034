import { ListCheckpoints, Rewind } from '@kimi-tools/checkpoints';
import type { ToolRuntime } from '@kimi-tools/core';
import type { ServableTool } from '@kimi-tools/mcp';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** ListCheckpoints and Rewind on one runtime: the model lists the checkpoints and takes files back to one. */
export function createCheckpointTools(runtime: ToolRuntime): ServableTool[] {
  return [new ListCheckpoints(runtime), new Rewind(runtime)];
}

/** MCP hints for the checkpoint tools: ListCheckpoints only reads, Rewind changes files. */
export const CHECKPOINT_TOOL_ANNOTATIONS: Readonly<Record<string, ToolAnnotations>> = {
  ListCheckpoints: { readOnlyHint: true, openWorldHint: false },
  Rewind: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

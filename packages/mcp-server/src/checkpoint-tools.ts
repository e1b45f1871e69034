import { ListCheckpoints, Rewind } from '@kimi-tools/checkpoints';
import type { ToolRuntime } from '@kimi-tools/core';
import type { ServableTool } from '@kimi-tools/mcp';

/** ListCheckpoints and Rewind on one runtime: the model lists the checkpoints and takes files back to one. */
export function createCheckpointTools(runtime: ToolRuntime): ServableTool[] {
  return [new ListCheckpoints(runtime), new Rewind(runtime)];
}

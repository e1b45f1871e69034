import { createToolSet, type ToolRuntime, type ToolSet } from '@kimi-tools/core';
import {
  createCheckpointTools,
  createFileTools as createServableFileTools,
  type FileToolOptions,
} from '@kimi-tools/mcp-server';

/** What the playground needs of a tool: its name, its schema, and its never-throwing `call`. */
export type PlaygroundTool = ReturnType<typeof createServableFileTools>[number];

/**
 * Every file tool on one shared runtime, and ListCheckpoints and Rewind on its checkpoints, as a tool set an agent
 * loop dispatches its model's calls through (the same tools the MCP server serves: ReadMediaFile only when its options
 * say the model takes images or videos in).
 */
export function createFileTools(
  runtime: ToolRuntime,
  options: FileToolOptions = {},
): ToolSet<PlaygroundTool> {
  return createToolSet([...createServableFileTools(runtime, options), ...createCheckpointTools(runtime)]);
}

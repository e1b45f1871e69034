import type { ToolRuntime } from '@kimi-tools/core';
import {
  createFileTools as createServableFileTools,
  type FileToolOptions,
  type ServableTool,
} from '@kimi-tools/mcp';

/** What the playground needs of a tool: its name, its schema, and its never-throwing `call`. */
export type PlaygroundTool = ServableTool;

/**
 * Every file tool on one shared runtime, by name, as an agent would offer them to its model (the same set the
 * MCP adapter serves: ReadMediaFile only when its options say the model takes images or videos in).
 */
export function createFileTools(
  runtime: ToolRuntime,
  options: FileToolOptions = {},
): Map<string, PlaygroundTool> {
  return new Map(createServableFileTools(runtime, options).map((tool) => [tool.name, tool]));
}

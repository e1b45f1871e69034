import { createToolSet, type ToolSet } from './tool-set.js';

/** What a tool set holds: a `CallableTool`, or a host's own object with its name, description, parameters and call. */
type SetTool = Parameters<typeof createToolSet>[0][number];

/** Tools as the model API adapters take them: a tool set, or the tools to make one of. */
export type ToolsOrSet = ToolSet<SetTool> | readonly SetTool[];

function isToolList(tools: ToolsOrSet): tools is readonly SetTool[] {
  return Array.isArray(tools);
}

/**
 * `tools` as a tool set: the set itself, or a new one over the list (which throws when two tools share a name, as
 * {@link createToolSet} does). Lets every adapter take either, so `aiSdkTools([new ReadFile(runtime)])` just works.
 */
export function toolSetOf(tools: ToolsOrSet): ToolSet<SetTool> {
  return isToolList(tools) ? createToolSet(tools) : tools;
}

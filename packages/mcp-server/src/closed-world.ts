import type { ServableTool } from '@kimi-tools/mcp';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP annotations for tools that reach nothing but the workspace's files (`openWorldHint: false`), by name, for
 * `createMcpServer`'s `annotations`: what each tool does to those files (`readOnlyHint`, `destructiveHint`) comes from
 * its own `access`.
 */
export function closedWorldAnnotations(tools: readonly ServableTool[]): Record<string, ToolAnnotations> {
  return Object.fromEntries(tools.map((tool) => [tool.name, { openWorldHint: false }]));
}

import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import { errorText, toolFailedMessage } from '@kimi-tools/core/toolkit';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { version as packageVersion } from '../package.json';
import type { ElicitationApproval } from './elicitation-approval.js';
import type { ServableTool } from './servable-tool.js';
import { toCallToolResult } from './to-call-tool-result.js';
import {
  duplicateToolMessage,
  notObjectSchemaMessage,
  TOOL_FAILED_BRIEF,
  unknownToolMessage,
} from './errors.js';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported to clients (default `kimi-tools`). */
  name?: string;
  /** Server version reported to clients (default: this package's version). */
  version?: string;
  /** Instructions the client may add to the model's system prompt. */
  instructions?: string;
  /** MCP tool annotations (read-only, destructive... hints) by tool name. */
  annotations?: Readonly<Record<string, ToolAnnotations>>;
  /**
   * Attach brief, display and extras as `structuredContent` to every result (default `false`: some clients show the
   * model `structuredContent` instead of `content` when both are present).
   */
  structuredContent?: boolean;
  /**
   * The runtime's {@link ElicitationApproval}, if it uses one: it is attached to the server, and each call runs as
   * part of its request so approval forms reach the client on any transport.
   */
  elicitation?: ElicitationApproval;
}

function checkTools(tools: readonly ServableTool[]): Map<string, ServableTool> {
  const byName = new Map<string, ServableTool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(duplicateToolMessage(tool.name));
    if (tool.parameters.type !== 'object') {
      throw new Error(notObjectSchemaMessage(tool.name));
    }
    byName.set(tool.name, tool);
  }
  return byName;
}

async function callSafely(tool: ServableTool, args: unknown, signal: AbortSignal): Promise<ToolReturnValue> {
  try {
    return await tool.call(args, { signal });
  } catch (error) {
    // Our tools never throw; a tool of someone else's might, and the server must keep serving.
    return toolError({ message: toolFailedMessage(tool.name, errorText(error)), brief: TOOL_FAILED_BRIEF });
  }
}

/**
 * An MCP server (the SDK's low-level `Server`) offering `tools` with their names, descriptions and JSON Schemas
 * exactly as given. Calls go to `tool.call` (which validates the arguments) and results are mapped by
 * `toCallToolResult`. An unknown tool name is a JSON-RPC `InvalidParams` error. Connect it to a transport:
 * `await server.connect(new StdioServerTransport())`.
 */
export function createMcpServer(tools: readonly ServableTool[], options: McpServerOptions = {}): Server {
  const byName = checkTools(tools);
  const listed: Tool[] = tools.map((tool) => {
    const entry: Tool = {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as Tool['inputSchema'],
    };
    const annotations = options.annotations?.[tool.name];
    if (annotations) entry.annotations = annotations;
    return entry;
  });

  // The low-level Server passes our JSON Schemas through untouched and leaves argument validation to the tool
  // (the `Error validating JSON arguments` message of docs/results.md); McpServer would re-derive schemas and validate itself.
  const server = new Server(
    { name: options.name ?? 'kimi-tools', version: options.version ?? packageVersion },
    {
      capabilities: { tools: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (!tool) {
      // Not an McpError: its message already starts `MCP error -32602: `, and the client adds that prefix again.
      throw Object.assign(new Error(unknownToolMessage(name, [...byName.keys()])), {
        code: ErrorCode.InvalidParams,
      });
    }
    const call = () => callSafely(tool, args ?? {}, extra.signal);
    const result = await (options.elicitation
      ? options.elicitation.runInCall(extra.requestId, call)
      : call());
    return toCallToolResult(result, { structuredContent: options.structuredContent === true });
  });
  options.elicitation?.attach(server);
  return server;
}

import { createToolSet } from '@kimi-tools/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { version as packageVersion } from '../package.json';
import { accessAnnotations } from './access-annotations.js';
import { handleCallTool } from './call-tool-request.js';
import type { ElicitationApproval } from './elicitation-approval.js';
import type { ServableTool } from './servable-tool.js';
import { toCallToolResult } from './to-call-tool-result.js';
import {
  duplicateToolMessage,
  noToolNameMessage,
  notObjectSchemaMessage,
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
  /**
   * More MCP tool annotations by tool name (a title, `openWorldHint`...), added to the hints each tool's `access`
   * implies (`accessAnnotations`), and winning over them.
   */
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

/** Refuses what MCP cannot serve, in this adapter's words, before core's tool set is made. */
function checkTools(tools: readonly ServableTool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new Error(duplicateToolMessage(tool.name));
    if (tool.parameters.type !== 'object') {
      throw new Error(notObjectSchemaMessage(tool.name));
    }
    seen.add(tool.name);
  }
}

/**
 * An MCP server (the SDK's low-level `Server`) offering `tools` with their names, descriptions and JSON Schemas
 * exactly as given, and the hints their `access` implies. Calls go through core's tool set to `tool.call` (which validates the arguments,
 * whatever `arguments` holds, `null` or left out read as `{}`; a tool that throws gives a `Tool failed` result) and
 * results are mapped by `toCallToolResult`. An unknown tool name (or none) is a
 * JSON-RPC `InvalidParams` error, as MCP asks. Connect it to a transport:
 * `await server.connect(new AnsweringStdioTransport())`, which answers a line MCP's schema refuses.
 */
export function createMcpServer(tools: readonly ServableTool[], options: McpServerOptions = {}): Server {
  checkTools(tools);
  const toolSet = createToolSet(tools);
  const listed: Tool[] = tools.map((tool) => {
    const entry: Tool = {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as Tool['inputSchema'],
    };
    const annotations = { ...accessAnnotations(tool.access), ...options.annotations?.[tool.name] };
    if (Object.keys(annotations).length > 0) entry.annotations = annotations;
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
  handleCallTool(server, async (request, extra) => {
    const { name, arguments: args } = request.params ?? {};
    if (typeof name !== 'string' || !toolSet.get(name)) {
      const message =
        typeof name === 'string' ? unknownToolMessage(name, toolSet.names) : noToolNameMessage(toolSet.names);
      // Not an McpError: its message already starts `MCP error -32602: `, and the client adds that prefix again.
      throw Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
    }
    const call = () => toolSet.call(name, args, { signal: extra.signal });
    const result = await (options.elicitation
      ? options.elicitation.runInCall(extra.requestId, call)
      : call());
    return toCallToolResult(result, { structuredContent: options.structuredContent === true });
  });
  options.elicitation?.attach(server);
  return server;
}

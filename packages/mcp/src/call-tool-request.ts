import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';

/** `tools/call` as MCP defines it, but taking `name` and `arguments` whatever they hold, and no `params` at all. */
const AnyArgumentsCallToolRequestSchema = CallToolRequestSchema.extend({
  params: z.optional(
    CallToolRequestSchema.shape.params.extend({
      name: z.optional(z.unknown()),
      arguments: z.optional(z.unknown()),
    }),
  ),
});

/** A `tools/call` request whose `params`, `name` and `arguments` may be anything a client sent (or left out). */
export type AnyArgumentsCallToolRequest = z.output<typeof AnyArgumentsCallToolRequestSchema>;

/**
 * Handles `tools/call` on `server` with `handler`, whatever `name` and `arguments` the request holds. The SDK's
 * `Server` checks every `tools/call` against MCP's schema before its handler runs, and answers `arguments: null`
 * (which Go, Java and C# clients send for none), an array or a string, or a missing name (or `params`), with a JSON-RPC `-32603`
 * holding a zod dump; registered past that check, such arguments reach the tool, which reads `null` as none and
 * answers the rest with its own `Error validating JSON arguments: arguments: ...`, a result the model can act on, and
 * the handler words its own error for a name that is no tool's.
 */
export function handleCallTool(
  server: Server,
  handler: (
    request: AnyArgumentsCallToolRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ) => Promise<CallToolResult>,
): void {
  Protocol.prototype.setRequestHandler.call(server, AnyArgumentsCallToolRequestSchema, handler);
}

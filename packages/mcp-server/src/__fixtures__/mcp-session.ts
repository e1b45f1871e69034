import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

/** The `kimi-tools-mcp` command the tests talk to, as users run it: the package's bin, on the build (`test:e2e`). */
export const CLI_PATH = fileURLToPath(new URL('../../bin/kimi-tools-mcp.js', import.meta.url));

/** Answers the server's elicitation requests, as a client's approval dialog would. */
export type ElicitHandler = (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

/** A connected client and the server process's stderr. */
export interface McpSession {
  client: Client;
  stderr(): string;
  /** Calls a tool and returns the parsed result (`timeoutMs`: the SDK's request timeout, 60 s unless given). */
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Spawns `node bin/kimi-tools-mcp.js ...args` and connects the SDK's real client over stdio. */
export async function startSession(args: string[], elicit?: ElicitHandler): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, ...args],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: 'kimi-tools-mcp-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  // A server that dies says why on stderr: put that in the failure instead of a bare "Connection closed".
  const withStderr = (error: unknown): never => {
    if (error instanceof Error && stderr) error.message += `\n--- server stderr ---\n${stderr}`;
    throw error;
  };
  await client.connect(transport).catch(withStderr);
  return {
    client,
    stderr: () => stderr,
    call: async (name, toolArgs, timeoutMs) =>
      (await client
        .callTool(
          { name, arguments: toolArgs },
          CallToolResultSchema,
          timeoutMs === undefined ? {} : { timeout: timeoutMs },
        )
        .catch(withStderr)) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of every text content block, in order. */
export function texts(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

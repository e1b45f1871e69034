import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** What an MCP server said about itself and its tools. */
export interface McpServerListing {
  /** The name and version the server gave in its `initialize` answer. */
  server: { name: string; version: string } | undefined;
  /** The names `tools/list` answered, in its order. */
  tools: string[];
}

/**
 * Starts `command args` in `cwd` as an MCP client does, over stdio, and asks for its tools; the process is ended
 * when the listing is in. Its stderr is in the error when the session fails. The first request waits up to
 * `timeoutMs`, since `npx` may install the server first.
 */
export async function listMcpTools(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<McpServerListing> {
  const env = Object.fromEntries(
    Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({ command, args, cwd: options.cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'kimi-tools-release-rehearsal', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    const { tools } = await client.listTools(undefined, { timeout: options.timeoutMs });
    return { server: client.getServerVersion(), tools: tools.map((tool) => tool.name) };
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')}: ${String(error)}\n${stderr}`, { cause: error });
  } finally {
    await client.close();
  }
}

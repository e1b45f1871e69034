import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
  /** The server's `XDG_STATE_HOME`: a directory of the session's own, where its checkpoints are stored. */
  stateDir: string;
  /** Calls a tool and returns the parsed result (`timeoutMs`: the SDK's request timeout, 60 s unless given). */
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * Spawns `node bin/kimi-tools-mcp.js ...args` and connects the SDK's real client over stdio. The server's checkpoints
 * go to a state directory of the session's own, removed when it closes (never the user's); `env` adds variables to
 * the SDK's default environment (`HOME`, `PATH`...).
 */
export async function startSession(
  args: string[],
  elicit?: ElicitHandler,
  env: Record<string, string> = {},
): Promise<McpSession> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'kimi-tools-mcp-state-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, ...args],
    env: { ...getDefaultEnvironment(), XDG_STATE_HOME: stateDir, ...env },
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
  await client.connect(transport).catch(async (error: unknown) => {
    await rm(stateDir, { recursive: true, force: true });
    return withStderr(error);
  });
  return {
    client,
    stderr: () => stderr,
    stateDir,
    call: async (name, toolArgs, timeoutMs) =>
      (await client
        .callTool(
          { name, arguments: toolArgs },
          CallToolResultSchema,
          timeoutMs === undefined ? {} : { timeout: timeoutMs },
        )
        .catch(withStderr)) as CallToolResult,
    close: async () => {
      await client.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** The text of every text content block, in order. */
export function texts(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

/** A server process whose stdin a test writes to itself, beside the SDK's client on the same pipes. */
export interface PipedSession {
  client: Client;
  /** Writes `text` to the server's stdin as it is (the SDK's client writes there too, a whole message at a time). */
  write(text: string): void;
  /** Every line the server wrote to stdout so far, without its line feed: the answers to the client's and to `write`'s. */
  lines: string[];
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Spawns `node bin/kimi-tools-mcp.js ...args` with pipes of its own, and connects the SDK's real client over them (the
 * SDK's stdio transport, from the client's side), so a test can also write raw lines to the server and read every
 * line it answers. Its checkpoints go to a state directory of its own, removed when it closes.
 */
export async function startPipedSession(args: string[], elicit?: ElicitHandler): Promise<PipedSession> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'kimi-tools-mcp-state-'));
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: { ...getDefaultEnvironment(), XDG_STATE_HOME: stateDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const lines: string[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  const client = new Client(
    { name: 'kimi-tools-mcp-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  await client.connect(new StdioServerTransport(child.stdout, child.stdin));
  return {
    client,
    write: (text) => void child.stdin.write(text),
    lines,
    stderr: () => stderr,
    close: async () => {
      await client.close();
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

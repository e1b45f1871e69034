import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, crc32 } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

/** The built binary the tests talk to (`test:e2e` runs after `build`). */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Answers the server's elicitation requests, as a client's approval dialog would. */
export type ElicitHandler = (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

/** A connected client and the server process's stderr. */
export interface McpSession {
  client: Client;
  stderr(): string;
  /** Calls a tool and returns the parsed result. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Spawns `node dist/cli.js ...args` and connects the SDK's real client over stdio. */
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
    call: async (name, toolArgs) =>
      (await client
        .callTool({ name, arguments: toolArgs }, CallToolResultSchema)
        .catch(withStderr)) as CallToolResult,
    close: () => client.close(),
  };
}

/** A fresh temporary workspace; `files` maps relative paths to contents. */
export async function makeWorkspace(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-mcp-')));
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(dir, name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  }
  return dir;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid `width`×`height` RGB PNG, every pixel red. */
export function tinyPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([255, 0, 0]))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The text of every text content block, in order. */
export function texts(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

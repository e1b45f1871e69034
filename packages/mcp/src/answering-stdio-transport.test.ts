import { PassThrough, type Readable } from 'node:stream';
import { toolOk } from '@kimi-tools/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolResultSchema, EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { AnsweringStdioTransport } from './answering-stdio-transport.js';
import { createMcpServer } from './create-mcp-server.js';
import type { ServableTool } from './servable-tool.js';

const parameters = { type: 'object', properties: { text: { type: 'string' } } } as const;
const echo: ServableTool = {
  name: 'Echo',
  description: 'Echoes.',
  parameters,
  call: async (args) => toolOk({ output: JSON.stringify(args) }),
};

/** The lines written to `stream` so far, without their line feeds. */
function linesOf(stream: Readable): string[] {
  const lines: string[] = [];
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  return lines;
}

/** A server of `tools` on `transport`'s streams, as a process's stdin and stdout: what it writes, line by line. */
async function serve(
  tools: ServableTool[],
  transport: (stdin: Readable, stdout: PassThrough) => Transport,
): Promise<{ server: Server; stdin: PassThrough; stdout: PassThrough; lines: string[]; errors: string[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines = linesOf(stdout);
  const server = createMcpServer(tools);
  const errors: string[] = [];
  server.onerror = (error) => errors.push(error.message);
  await server.connect(transport(stdin, stdout));
  return { server, stdin, stdout, lines, errors };
}

/** Waits (bounded) until `lines` holds `count` lines past `from`, and returns them. */
async function answers(lines: string[], from: number, count: number): Promise<string[]> {
  await vi.waitFor(() => expect(lines.length - from).toBeGreaterThanOrEqual(count), { timeout: 5_000 });
  return lines.slice(from);
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('AnsweringStdioTransport', () => {
  it('answers each line the SDK drops, in order, beside a call in progress, and serves the SDK client after', async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const slow: ServableTool = {
      ...echo,
      name: 'Slow',
      call: async () => {
        await finished;
        return toolOk({ output: 'done' });
      },
    };
    const { stdin, stdout, lines, errors } = await serve([echo, slow], (input, output) => {
      return new AnsweringStdioTransport(input, output);
    });
    // The SDK's client, over the same two streams (the SDK's stdio transport, from the client's side).
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StdioServerTransport(stdout, stdin));
    const call = client.callTool({ name: 'Slow', arguments: {} }, CallToolResultSchema);
    await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 5_000 });

    const from = lines.length;
    const bad = [
      '{"jsonrpc":"2.0","id":1007,"method":"tools/call","params":null}',
      '{"jsonrpc":"2.0","id":"list","method":"tools/list","params":"x"}',
      '',
      '{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}',
      '{"jsonrpc":"2.0","id":1008}',
      'this is not json',
      '[{"jsonrpc":"2.0","id":1009,"method":"tools/list"}]',
    ].join('\n');
    // One line split across two chunks, a carriage return before a line feed.
    stdin.write(bad.slice(0, 30));
    stdin.write(`${bad.slice(30)}\r\n`);
    const expected = [
      '{"jsonrpc":"2.0","id":1007,"error":{"code":-32602,"message":"The request\'s params is null: params must be an object, or left out."}}',
      '{"jsonrpc":"2.0","id":"list","error":{"code":-32602,"message":"The request\'s params is the string `x`: params must be an object, or left out."}}',
      '{"jsonrpc":"2.0","id":1008,"error":{"code":-32600,"message":"The request has no method: method must be the name of a method, a string."}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"The line is not JSON (Unexpected token \'h\', \\"this is not json\\" is not valid JSON): each line must be one JSON-RPC message, a JSON object."}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"The line is a batch of 1 message: MCP takes one JSON-RPC message per line and no batches, so none of them was read."}}',
    ];
    // Answered while Slow still runs: no line waits for a call in progress.
    expect(await answers(lines, from, expected.length)).toEqual(expected);
    expect(errors).toEqual([
      "The request's params is null: params must be an object, or left out.",
      "The request's params is the string `x`: params must be an object, or left out.",
      "The notification's params is an array: params must be an object, or left out.",
      'The request has no method: method must be the name of a method, a string.',
      'The line is not JSON (Unexpected token \'h\', "this is not json" is not valid JSON): each line must be one JSON-RPC message, a JSON object.',
      'The line is a batch of 1 message: MCP takes one JSON-RPC message per line and no batches, so none of them was read.',
    ]);

    finish();
    expect((await call).content).toEqual([{ type: 'text', text: 'done' }]);
    const after = await client.callTool({ name: 'Echo', arguments: { text: 'hi' } }, CallToolResultSchema);
    expect(after.content).toEqual([{ type: 'text', text: '{"text":"hi"}' }]);
    await client.close();
  });

  it("fails the server's own request with the words of a malformed response to it, at once", async () => {
    const { server, stdin, lines, errors } = await serve([echo], (input, output) => {
      return new AnsweringStdioTransport(input, output);
    });
    stdin.write(`${INITIALIZE}\n`);
    await answers(lines, 0, 1);
    // A ping of the server's, as an approval form is sent: answered with `"result": null`, which MCP's schema refuses.
    const ping = server.request({ method: 'ping' }, EmptyResultSchema, { timeout: 10_000 });
    const [sent] = await answers(lines, 1, 1);
    const { id } = JSON.parse(sent!) as { id: number };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: null })}\n`);
    const text = "The response's result is null: MCP's schema does not take it there.";
    await expect(ping).rejects.toThrow(`MCP error -32600: ${text}`);
    expect(errors).toEqual([text]);
  });

  it('writes the very bytes of the SDK transport for every message it takes', async () => {
    const lines = [
      INITIALIZE,
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"Echo","arguments":{"text":"é\\n"}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Nope"}}',
      '{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{}}',
      '{"jsonrpc":"2.0","id":5,"method":"ping"}\r',
    ];
    const written = async (transport: (stdin: Readable, stdout: PassThrough) => Transport) => {
      const session = await serve([echo], transport);
      session.stdin.write(`${lines.join('\n')}\n`);
      return answers(session.lines, 0, 6);
    };
    const ours = await written((input, output) => new AnsweringStdioTransport(input, output));
    const sdks = await written((input, output) => new StdioServerTransport(input, output));
    expect(ours).toEqual(sdks);
    // Each request answered once (a handler's answer may come after a later request's).
    const ids = ours.map((line) => (JSON.parse(line) as { id: unknown }).id);
    expect(new Set(ids)).toEqual(new Set([0, 1, 'two', 3, 4, 5]));
  });

  it('ends the session on a message over maxBufferSize, as the SDK transport does', async () => {
    const stdin = new PassThrough();
    const transport = new AnsweringStdioTransport(stdin, new PassThrough(), { maxBufferSize: 16 });
    const errors: string[] = [];
    let closed = false;
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => (closed = true);
    await transport.start();
    await expect(transport.start()).rejects.toThrow(
      'AnsweringStdioTransport already started: Server.connect starts it.',
    );
    stdin.write('{"jsonrpc":"2.0",');
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 5_000 });
    expect(errors).toEqual(['ReadBuffer exceeded maximum size of 16 bytes']);
  });

  it('reads no further line once closed, though its chunk holds more', async () => {
    const stdin = new PassThrough();
    const transport = new AnsweringStdioTransport(stdin, new PassThrough());
    const read: unknown[] = [];
    transport.onmessage = (message) => {
      read.push(message);
      void transport.close();
    };
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n');
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 5_000 });
    expect(read).toEqual([{ jsonrpc: '2.0', method: 'a' }]);
  });
});

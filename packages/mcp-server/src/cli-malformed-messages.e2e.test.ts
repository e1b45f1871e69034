import fs from 'node:fs/promises';
import { it, signal } from '@kimi-tools/test-kit';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, vi } from 'vitest';
import { startPipedSession, texts, type PipedSession } from './__fixtures__/mcp-session.js';

/** Each line the client writes, and the exact line the server answers it with (`undefined`: no answer). */
const EXCHANGES: Array<[string, string | undefined]> = [
  // params that are no object, on any method: answered to the request's id with -32602.
  [
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":null}',
    `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"The request's params is null: params must be an object, or left out."}}`,
  ],
  [
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}',
    '{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"The request\'s params is the string `x`: params must be an object, or left out."}}',
  ],
  [
    '{"jsonrpc":"2.0","id":"list","method":"tools/list","params":"x"}',
    '{"jsonrpc":"2.0","id":"list","error":{"code":-32602,"message":"The request\'s params is the string `x`: params must be an object, or left out."}}',
  ],
  [
    '{"jsonrpc":"2.0","id":"init","method":"initialize","params":[]}',
    `{"jsonrpc":"2.0","id":"init","error":{"code":-32602,"message":"The request's params is an array: params must be an object, or left out."}}`,
  ],
  [
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":5}',
    `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"The request's params is the number 5: params must be an object, or left out."}}`,
  ],
  // An id and no method, or a method that is no string: -32600 to that id.
  [
    '{"jsonrpc":"2.0","id":8}',
    '{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"The request has no method: method must be the name of a method, a string."}}',
  ],
  [
    '{"jsonrpc":"2.0","id":9,"method":5}',
    `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"The request's method is the number 5: method must be the name of a method, a string."}}`,
  ],
  // A malformed notification is never answered.
  ['{"jsonrpc":"2.0","method":"notifications/initialized","params":null}', undefined],
  // No JSON: -32700 to null; JSON that is no object, or a batch: -32600 to null.
  [
    'this is not json',
    `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"The line is not JSON (Unexpected token 'h', \\"this is not json\\" is not valid JSON): each line must be one JSON-RPC message, a JSON object."}}`,
  ],
  [
    '42',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"The line is the number 42, not a JSON-RPC message: each line must be one JSON object."}}',
  ],
  [
    '[]',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"The line is a batch of 0 messages: MCP takes one JSON-RPC message per line and no batches, so none of them was read."}}',
  ],
  [
    '[{"jsonrpc":"2.0","id":10,"method":"tools/list"},{"jsonrpc":"2.0","id":11,"method":"tools/list"}]',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"The line is a batch of 2 messages: MCP takes one JSON-RPC message per line and no batches, so none of them was read."}}',
  ],
];

/** What the server's stderr says of a line it could not take: the words of its answer. */
function told(answer: string): string {
  return `kimi-tools-mcp: ${(JSON.parse(answer) as { error: { message: string } }).error.message}\n`;
}

describe('kimi-tools-mcp: a line that holds no message MCP takes', () => {
  it('is answered at once, in order, beside a call waiting for approval; the SDK client is served after', async ({
    workspace,
  }) => {
    await workspace.write('notes.txt', 'alpha\n');
    const asked = signal();
    const answer = signal();
    let session: PipedSession | undefined;
    try {
      session = await startPipedSession(['--approval', 'elicit', workspace.workDir], async () => {
        asked.fire();
        await answer.promise;
        return { action: 'decline' };
      });
      // A call in progress: it waits for the user's answer to its approval form.
      const call = (name: string, args: Record<string, unknown>) =>
        session!.client.callTool({ name, arguments: args }, CallToolResultSchema) as Promise<CallToolResult>;
      const write = call('WriteFile', { path: 'new.txt', content: 'x' });
      // Awaited below; should the test fail before, its rejection when the session closes is not a second failure.
      write.catch(() => undefined);
      await asked.promise;

      const from = session.lines.length;
      session.write(EXCHANGES.map(([line]) => `${line}\n`).join(''));
      const expected = EXCHANGES.flatMap(([, reply]) => (reply === undefined ? [] : [reply]));
      // Bounded: an answer that never comes fails here, not at the client's own timeout.
      await vi.waitFor(() => expect(session!.lines.length - from).toBeGreaterThanOrEqual(expected.length), {
        timeout: 10_000,
      });
      expect(session.lines.slice(from)).toEqual(expected);
      expect(session.stderr()).toBe(
        [
          ...expected.slice(0, 7).map(told),
          "kimi-tools-mcp: The notification's params is null: params must be an object, or left out.\n",
          ...expected.slice(7).map(told),
        ].join(''),
      );

      answer.fire();
      expect(texts(await write)).toEqual([
        'ERROR: The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.',
      ]);
      await expect(fs.stat(workspace.at('new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      const read = await call('ReadFile', { path: 'notes.txt' });
      expect(texts(read)).toEqual([
        '1 lines read from file starting from line 1. Total lines in file: 1. End of file reached.',
        '     1\talpha\n',
      ]);
    } finally {
      await session?.close();
    }
  });
});

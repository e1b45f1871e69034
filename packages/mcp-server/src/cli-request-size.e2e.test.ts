import fs from 'node:fs/promises';
import { it } from '@kimi-tools/test-kit';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { startSession, texts, type McpSession } from './__fixtures__/mcp-session.js';
import { MAX_REQUEST_BYTES } from './whole-lines.js';

const MIB = 1024 * 1024;

describe('kimi-tools-mcp: a large request from the client', () => {
  it('is read up to 64 MiB; a larger one is answered as too large, and the session goes on', async ({
    workspace,
  }) => {
    let session: McpSession | undefined;
    try {
      session = await startSession(['--approval', 'yolo', workspace.workDir]);
      // Over the SDK transport's 10 MiB, which ended the session: the server exited, the call lost.
      const twelve = await session.call('WriteFile', { path: 'twelve.txt', content: 'x'.repeat(12 * MIB) });
      expect(texts(twelve)).toEqual([`File successfully overwritten. Current size: ${12 * MIB} bytes.`]);
      expect((await fs.stat(workspace.at('twelve.txt'))).size).toBe(12 * MIB);

      // The client's own call, not the fixture's: the fixture adds the server's stderr to an error.
      const huge = session.client.callTool({
        name: 'WriteFile',
        arguments: { path: 'huge.txt', content: 'y'.repeat(MAX_REQUEST_BYTES) },
      });
      const bytes = Buffer.byteLength(
        JSON.stringify({
          method: 'tools/call',
          params: {
            name: 'WriteFile',
            arguments: { path: 'huge.txt', content: 'y'.repeat(MAX_REQUEST_BYTES) },
          },
          jsonrpc: '2.0',
          id: 2,
        }) + '\n',
      );
      const message = `The request is ${bytes} bytes, over the ${MAX_REQUEST_BYTES} bytes kimi-tools-mcp reads in one message, so it was not read and nothing was done. Send less at once: write a large file in parts (WriteFile with mode append).`;
      await expect(huge).rejects.toEqual(new McpError(ErrorCode.InvalidRequest, message));
      await expect(fs.stat(workspace.at('huge.txt'))).rejects.toMatchObject({ code: 'ENOENT' });

      const read = await session.call('ReadFile', { path: 'twelve.txt', n_lines: 1 });
      expect(read.isError).toBe(false);
      expect(session.stderr()).toBe(`kimi-tools-mcp: ${message}\n`);
    } finally {
      await session?.close();
    }
  });
});

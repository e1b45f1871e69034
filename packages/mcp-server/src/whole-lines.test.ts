import { describe, expect, it } from 'vitest';
import { WholeLines, type DroppedMessage } from './whole-lines.js';

async function run(
  chunks: string[],
  maxBytes: number,
): Promise<{ lines: string[]; dropped: DroppedMessage[] }> {
  const dropped: DroppedMessage[] = [];
  const stream = new WholeLines(maxBytes, (message) => dropped.push(message));
  const lines: string[] = [];
  stream.on('data', (line: Buffer) => lines.push(line.toString('utf8')));
  for (const chunk of chunks) stream.write(Buffer.from(chunk));
  stream.end();
  await new Promise((resolve) => stream.on('end', resolve));
  return { lines, dropped };
}

describe('WholeLines', () => {
  it('passes each message on whole, however the stream cuts it', async () => {
    expect(await run(['{"a":', '1}\n{"b":2}\n{"c"', ':3}\n'], 100)).toEqual({
      lines: ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n'],
      dropped: [],
    });
  });

  it('leaves out a message over the limit, naming its id wherever the client put it, and keeps the next', async () => {
    const big = 'z'.repeat(50);
    const sdkOrder = `{"method":"tools/call","params":{"c":"${big}"},"jsonrpc":"2.0","id":7}\n`;
    const idFirst = `{"jsonrpc":"2.0","id":"r-1","params":{"c":"${big}"}}\r\n`;
    const notification = `{"jsonrpc":"2.0","method":"n","params":{"id":3,"c":"${big}"}}\n`;
    const all = `${sdkOrder}${idFirst}${notification}{"ok":1}\n`;
    const { lines, dropped } = await run([all.slice(0, 30), all.slice(30, 140), all.slice(140)], 40);
    expect(lines).toEqual(['{"ok":1}\n']);
    expect(dropped).toEqual([
      { bytes: Buffer.byteLength(sdkOrder), id: 7 },
      { bytes: Buffer.byteLength(idFirst), id: 'r-1' },
      { bytes: Buffer.byteLength(notification) },
    ]);
  });
});

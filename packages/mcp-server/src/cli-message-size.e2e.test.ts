import fs from 'node:fs/promises';
import { it } from '@kimi-tools/test-kit';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { startSession, texts, type McpSession } from './__fixtures__/mcp-session.js';

/** What a stdio client with an 8 MiB line buffer still accepts (Claude Desktop's is 10 MiB). */
const EIGHT_MIB = 8 * 1024 * 1024;

/** Time allowed for each call on 50 MB: generous, since a loaded machine may be slow (no duration is asserted). */
const SLOW_CALL_MS = 1_200_000;

/** A 50 MB file of one line, with one word to edit in its middle. */
function oneLongLine(): string {
  const half = 'a'.repeat(25_000_000);
  return `${half} NEEDLE ${half}\n`;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

describe('kimi-tools-mcp: every message stays under 8 MiB (14.8)', () => {
  it(
    'edits a 50 MB one-line file through an approval form of bounded size',
    async ({ workspace }) => {
      const file = await workspace.write('big.txt', oneLongLine());
      const forms: ElicitRequestFormParams[] = [];
      let session: McpSession | undefined;
      try {
        session = await startSession(['--structured-content', workspace.workDir], (request) => {
          forms.push(request as ElicitRequestFormParams);
          return { action: 'accept', content: { decision: 'approve' } };
        });
        const read = await session.call('ReadFile', { path: 'big.txt' }, SLOW_CALL_MS);
        expect(jsonBytes(read)).toBeLessThan(EIGHT_MIB);
        const edit = await session.call(
          'StrReplaceFile',
          {
            path: 'big.txt',
            edit: { old: ' NEEDLE ', new: ' thread ' },
          },
          SLOW_CALL_MS,
        );
        expect(edit.isError, texts(edit).join('\n')).toBe(false);
        expect(jsonBytes(edit)).toBeLessThan(EIGHT_MIB);
        expect(forms).toHaveLength(1);
        expect(jsonBytes(forms[0])).toBeLessThan(EIGHT_MIB);
        expect(forms[0]!.message).toContain('StrReplaceFile wants to edit file');
        const written = await fs.readFile(file, 'utf8');
        expect(written.length).toBe(50_000_009);
        expect(written.slice(24_999_995, 25_000_013)).toBe('aaaaa thread aaaaa');
      } finally {
        await session?.close();
      }
    },
    2 * SLOW_CALL_MS,
  );
});

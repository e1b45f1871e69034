import fs from 'node:fs/promises';
import { it, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { startSession, texts, type ElicitHandler } from './__fixtures__/mcp-session.js';

const README = new URL('../README.md', import.meta.url);

/**
 * The arguments after `@kimi-tools/mcp-server` in the first JSON snippet that follows `**{client}**` in the README, with its
 * placeholder paths replaced by `workspace`'s directories.
 */
async function snippetArgs(client: string, workspace: TempWorkspace): Promise<string[]> {
  const readme = await fs.readFile(README, 'utf8');
  const from = readme.indexOf(`**${client}**`);
  expect(from, client).toBeGreaterThan(0);
  const block = /```json\n([\s\S]*?)```/.exec(readme.slice(from));
  const config = JSON.parse(block![1]!) as { mcpServers: Record<string, { args: string[] }> };
  const args = config.mcpServers['kimi-tools']!.args;
  const places: Record<string, string> = {
    '/path/to/project': workspace.workDir,
    '/path/to/shared-lib': workspace.outsideDir,
  };
  return args.slice(args.indexOf('@kimi-tools/mcp-server') + 1).map((arg) => places[arg] ?? arg);
}

const approve: ElicitHandler = () => ({ action: 'accept', content: { decision: 'approve' } });

describe('the README client snippets work as they say', () => {
  for (const [client, elicit] of [
    ['Claude Desktop', undefined],
    ['Claude Code', approve],
    ['Cursor', approve],
    ['Any other client', approve],
  ] as const) {
    it(`${client}: a change goes through${elicit ? ' once approved in a form' : ' (the client asks first)'}`, async ({
      workspace,
    }) => {
      const args = await snippetArgs(client, workspace);
      let asked = 0;
      const session = await startSession(
        args,
        elicit &&
          ((request) => {
            asked++;
            return elicit(request);
          }),
      );
      try {
        const result = await session.call('WriteFile', { path: 'hello.txt', content: 'hi\n' });
        expect(result.isError, texts(result).join('\n')).toBe(false);
        expect(await fs.readFile(workspace.at('hello.txt'), 'utf8')).toBe('hi\n');
        expect(asked).toBe(elicit ? 1 : 0);
      } finally {
        await session.close();
      }
    });
  }

  it('Any other client without elicitation: the change is refused, saying how to allow it', async ({
    workspace,
  }) => {
    const args = await snippetArgs('Any other client', workspace);
    const session = await startSession(args);
    try {
      const result = await session.call('WriteFile', { path: 'hello.txt', content: 'hi\n' });
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toContain('--approval yolo');
      await expect(fs.stat(workspace.at('hello.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await session.close();
    }
  });
});

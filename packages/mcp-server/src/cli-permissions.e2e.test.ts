import fs from 'node:fs/promises';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { startSession, texts, type ElicitHandler, type McpSession } from './__fixtures__/mcp-session.js';

const RULES = [
  '# the project rules',
  'allow Edit(src/**)',
  'ask Edit(.github/**)',
  'deny Edit(**/*.lock)',
  'deny Read(private/)',
].join('\n');

/**
 * The kit's test, with `setUp`: writes the rules file outside the workspace and starts the server with
 * `--permissions` on it and `args`; the session is closed after the test, before the workspace is removed.
 */
const it = test.extend('setUp', ({ workspace }, { onCleanup }) => {
  const sessions: McpSession[] = [];
  onCleanup(async () => {
    for (const session of sessions) await session.close();
  });
  return async (args: string[], elicit?: ElicitHandler): Promise<McpSession> => {
    const rules = await workspace.write(workspace.outside('permissions'), RULES);
    const session = await startSession(['--permissions', rules, ...args, workspace.workDir], elicit);
    sessions.push(session);
    return session;
  };
});

describe('kimi-tools-mcp --permissions', () => {
  it('allows without a form, asks the others, and refuses what a rule denies', async ({
    workspace,
    setUp,
  }) => {
    const asked: string[] = [];
    const session = await setUp(['--approval', 'elicit'], (request) => {
      // The head of the form: what is asked, and which rule decided to ask.
      asked.push(request.message.split('\n').slice(0, 2).join('\n'));
      return { action: 'accept', content: { decision: 'approve_for_session' } };
    });
    const allowed = await session.call('WriteFile', { path: 'src/app.ts', content: 'export {};\n' });
    expect(allowed.isError).toBeFalsy();
    expect(asked).toEqual([]);
    const denied = await session.call('WriteFile', { path: 'pnpm.lock', content: 'x' });
    expect(denied.isError).toBe(true);
    expect(texts(denied)).toEqual([
      'ERROR: `pnpm.lock` is denied by the permission rule `deny Edit(**/*.lock)`.',
    ]);
    await session.call('WriteFile', { path: 'notes.md', content: 'a\n' });
    // "Approve for session" was given for "edit file"; an ask rule still asks.
    await session.call('WriteFile', { path: 'other.md', content: 'b\n' });
    await session.call('WriteFile', { path: '.github/ci.yml', content: 'on: push\n' });
    expect(asked).toEqual([
      `WriteFile wants to edit file: Write file \`${workspace.at('notes.md')}\`\nNo permission rule decided this change.`,
      `WriteFile wants to edit file: Write file \`${workspace.at('.github/ci.yml')}\`\nAsked by the permission rule \`ask Edit(.github/**)\`.`,
    ]);
    expect(await fs.readFile(workspace.at('src/app.ts'), 'utf8')).toBe('export {};\n');
    await expect(fs.stat(workspace.at('pnpm.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a read a rule denies, in read-only mode too', async ({ workspace, setUp }) => {
    await workspace.write('private/plan.md', 'plan\n');
    const session = await setUp(['--approval', 'reject']);
    const denied = await session.call('ReadFile', { path: 'private/plan.md' });
    expect(texts(denied)).toEqual([
      'ERROR: `private/plan.md` is denied by the permission rule `deny Read(private/)`.',
    ]);
    // Nor does a listing of the work dir name it.
    await workspace.write('notes.md', 'n\n');
    expect(texts(await session.call('ReadFile', { path: '.' }))).toEqual([
      'ERROR: `.` is not a file. It is a directory holding:\nnotes.md\nUse the Glob tool to find files in it.',
    ]);
  });
});

import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

/** The kit's test, with `withRules`: a WriteFile on a runtime with these permission rules, and its approval. */
const it = test.extend('withRules', ({ workspace }) => (permissions: string[]) => {
  const approval = recordingApproval();
  const runtime = workspace.runtime({ approval, permissions });
  return { approval, tool: new WriteFile(runtime), runtime };
});

describe('WriteFile and permission rules (docs/permissions.md)', () => {
  it('is an Edit: allowed without asking, asked on an ask rule, refused on a deny', async ({
    workspace,
    withRules,
  }) => {
    const { approval, tool } = withRules([
      'allow Edit(src/**)',
      'ask WriteFile(.github/**)',
      'deny Edit(**/*.lock)',
      'deny Read(src/**)',
    ]);
    expect((await tool.call({ path: 'src/a.ts', content: 'a\n' })).isError).toBe(false);
    expect(await tool.call({ path: 'pnpm.lock', content: 'x' })).toEqual({
      isError: true,
      output: '',
      message: '`pnpm.lock` is denied by the permission rule `deny Edit(**/*.lock)`.',
      brief: 'Denied by permission rule',
      display: [{ type: 'brief', text: 'Denied by permission rule' }],
    });
    await tool.call({ path: '.github/ci.yml', content: 'on: push\n' });
    expect(approval.requests.map((request) => [request.path, request.rule])).toEqual([
      [workspace.at('.github/ci.yml'), 'ask WriteFile(.github/**)'],
    ]);
    expect(approval.decisions.map((decision) => [decision.effect, decision.rule])).toEqual([
      ['allow', 'allow Edit(src/**)'],
    ]);
    expect(await workspace.read(workspace.at('src/a.ts'))).toBe('a\n');
    expect(await workspace.exists(workspace.at('pnpm.lock'))).toBe(false);
  });

  it('an allow skips no read-before-write and opens no sensitive file', async ({ workspace, withRules }) => {
    const { tool } = withRules(['allow Edit(**)']);
    await workspace.write('notes.txt', 'old\n');
    expect((await tool.call({ path: 'notes.txt', content: 'new\n' })).brief).toBe('File not read');
    await workspace.write('.env', 'TOKEN=1\n');
    expect((await tool.call({ path: '.env', content: 'TOKEN=2\n' })).brief).toBe('Sensitive file');
    expect(await workspace.read(workspace.at('.env'))).toBe('TOKEN=1\n');
  });
});

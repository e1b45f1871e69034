import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ApplyPatch } from './index.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/** The kit's test, with `withRules`: an ApplyPatch on a runtime with these permission rules, `a.ts` and `old.ts` read. */
const it = test.extend('withRules', ({ workspace }) => async (permissions: string[]) => {
  const approval = recordingApproval();
  const runtime = workspace.runtime({ approval, permissions });
  await workspace.write('src/a.ts', 'a\n', { readBy: runtime });
  await workspace.write('src/old.ts', 'x\n', { readBy: runtime });
  return { approval, tool: new ApplyPatch(runtime) };
});

const EDIT_AND_ADD = (added: string) =>
  patch('*** Update File: src/a.ts', '@@', '-a', '+b', `*** Add File: ${added}`, '+new');

describe('ApplyPatch and permission rules (docs/permissions.md)', () => {
  it('is refused whole when a rule denies any of its files, naming that file', async ({
    workspace,
    withRules,
  }) => {
    const { approval, tool } = await withRules(['allow Edit(src/**)', 'deny Edit(**/*.lock)']);
    const result = await tool.call({ patch: EDIT_AND_ADD('deps.lock') });
    expect([result.isError, result.message, result.brief]).toEqual([
      true,
      '`deps.lock` is denied by the permission rule `deny Edit(**/*.lock)`.',
      'Denied by permission rule',
    ]);
    expect(await workspace.read(workspace.at('src/a.ts'))).toBe('a\n');
    expect(await workspace.exists(workspace.at('deps.lock'))).toBe(false);
    expect(approval.requests).toEqual([]);
    expect(approval.decisions.map((decision) => [decision.effect, decision.request.paths])).toEqual([
      ['deny', [workspace.at('src/a.ts'), workspace.at('deps.lock')]],
    ]);
  });

  it('asks nothing only when an allow covers every file', async ({ workspace, withRules }) => {
    const { approval, tool } = await withRules(['allow ApplyPatch(src/)']);
    expect((await tool.call({ patch: EDIT_AND_ADD('src/b.ts') })).isError).toBe(false);
    expect(approval.requests).toEqual([]);
    expect(
      (await tool.call({ patch: patch('*** Add File: README.md', '+hi', '*** Add File: src/c.ts', '+c') }))
        .isError,
    ).toBe(false);
    expect(approval.requests.map((request) => request.paths)).toEqual([
      [workspace.at('README.md'), workspace.at('src/c.ts')],
    ]);
  });

  it('judges a move on both of its names', async ({ workspace, withRules }) => {
    const { tool } = await withRules(['deny Edit(archive/)']);
    const result = await tool.call({
      patch: patch('*** Update File: src/old.ts', '*** Move to: archive/old.ts', '-x', '+y'),
    });
    expect(result.message).toBe('`archive/old.ts` is denied by the permission rule `deny Edit(archive/)`.');
    expect(await workspace.read(workspace.at('src/old.ts'))).toBe('x\n');
  });

  it("names no file a deny rule hides from it in a missing file's hint", async ({ withRules }) => {
    const update = patch('*** Update File: src/olf.ts', '@@', '-x', '+y');
    const open = await withRules([]);
    expect((await open.tool.call({ patch: update })).message).toContain(
      'src/olf.ts: `src/olf.ts` does not exist. Did you mean: src/old.ts?',
    );
    const ruled = await withRules(['deny Edit(src/old.ts)']);
    const result = await ruled.tool.call({ patch: update });
    expect(result.message).toContain('src/olf.ts: `src/olf.ts` does not exist.');
    expect(result.message).not.toContain('Did you mean');
  });
});

import { markRead, recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `withRules`: a runtime with these permission rules and its approval. */
const it = test.extend('withRules', ({ workspace }) => (permissions: string[]) => {
  const approval = recordingApproval();
  return { approval, runtime: workspace.runtime({ approval, permissions }) };
});

describe('StrReplaceFile and permission rules (docs/permissions.md)', () => {
  it('is refused on a deny before it reads the file or checks the read state', async ({
    workspace,
    withRules,
  }) => {
    const { runtime, approval } = withRules(['deny StrReplaceFile(vendor/**)']);
    await workspace.write('vendor/lib.js', 'a\n');
    const result = await new StrReplaceFile(runtime).call({
      path: 'vendor/lib.js',
      edit: { old: 'a', new: 'b' },
    });
    expect([result.message, result.brief]).toEqual([
      '`vendor/lib.js` is denied by the permission rule `deny StrReplaceFile(vendor/**)`.',
      'Denied by permission rule',
    ]);
    expect(approval.requests).toEqual([]);
  });

  for (const streamAboveBytes of [undefined, 1]) {
    const how = streamAboveBytes === undefined ? 'in memory' : 'streamed';
    it(`edits ${how} without asking under an allow, and asks elsewhere`, async ({ workspace, withRules }) => {
      const { runtime, approval } = withRules(['allow Edit(src/)']);
      const tool = new StrReplaceFile(runtime, { streamAboveBytes });
      const inside = await workspace.write('src/a.ts', 'one\n', { readBy: runtime });
      const elsewhere = await workspace.write('lib/b.ts', 'one\n');
      await markRead(runtime, elsewhere);
      expect((await tool.call({ path: 'src/a.ts', edit: { old: 'one', new: 'two' } })).isError).toBe(false);
      expect((await tool.call({ path: 'lib/b.ts', edit: { old: 'one', new: 'two' } })).isError).toBe(false);
      expect(approval.requests.map((request) => request.path)).toEqual([elsewhere]);
      expect(approval.decisions.map((decision) => [decision.effect, decision.request.path])).toEqual([
        ['allow', inside],
      ]);
      expect(await workspace.read(inside)).toBe('two\n');
    });
  }

  it("names no file a deny rule hides from it in a missing file's hint", async ({ workspace, withRules }) => {
    await workspace.write('deps/yarn.lock', 'a\n');
    const edit = { old: 'a', new: 'b' };
    const open = withRules([]);
    expect((await new StrReplaceFile(open.runtime).call({ path: 'deps/yarn.lok', edit })).message).toBe(
      '`deps/yarn.lok` does not exist. Did you mean: deps/yarn.lock?',
    );
    const { runtime } = withRules(['deny Edit(*.lock)']);
    expect((await new StrReplaceFile(runtime).call({ path: 'deps/yarn.lok', edit })).message).toBe(
      '`deps/yarn.lok` does not exist.',
    );
  });
});

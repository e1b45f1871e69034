import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { NotebookEdit } from './index.js';

const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: 'code', execution_count: null, id: 'b', metadata: {}, outputs: [], source: ['x = 1'] },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

/** The kit's test, with `withRules`: a NotebookEdit on a runtime with these rules, and notebooks it has read. */
const it = test.extend('withRules', ({ workspace }) => async (permissions: string[]) => {
  const approval = recordingApproval();
  const runtime = workspace.runtime({ approval, permissions });
  await workspace.write('notebooks/a.ipynb', NOTEBOOK, { readBy: runtime });
  await workspace.write('scratch/b.ipynb', NOTEBOOK, { readBy: runtime });
  return { approval, tool: new NotebookEdit(runtime) };
});

describe('NotebookEdit and permission rules (docs/permissions.md)', () => {
  it('is an Edit: allowed without asking, refused on a deny', async ({ workspace, withRules }) => {
    const { approval, tool } = await withRules(['allow Edit(scratch/**)', 'deny NotebookEdit(notebooks/)']);
    const edit = (notebook_path: string) => tool.call({ notebook_path, cell_id: 'b', new_source: 'x = 2' });
    const denied = await edit('notebooks/a.ipynb');
    expect([denied.message, denied.brief]).toEqual([
      '`notebooks/a.ipynb` is denied by the permission rule `deny NotebookEdit(notebooks/)`.',
      'Denied by permission rule',
    ]);
    expect(await workspace.read(workspace.at('notebooks/a.ipynb'))).toBe(NOTEBOOK);
    expect((await edit('scratch/b.ipynb')).isError).toBe(false);
    expect(await workspace.read(workspace.at('scratch/b.ipynb'))).toContain('"x = 2"');
    expect(approval.requests).toEqual([]);
    expect(approval.decisions.map((decision) => [decision.effect, decision.rule])).toEqual([
      ['allow', 'allow Edit(scratch/**)'],
    ]);
  });

  it("names no notebook a deny rule hides from it in a missing file's hint", async ({ withRules }) => {
    const call = { notebook_path: 'scratch/c.ipynb', cell_id: 'b', new_source: 'x = 2' };
    expect((await (await withRules([])).tool.call(call)).message).toBe(
      '`scratch/c.ipynb` does not exist. Did you mean: scratch/b.ipynb?',
    );
    expect((await (await withRules(['deny NotebookEdit(scratch/b.ipynb)'])).tool.call(call)).message).toBe(
      '`scratch/c.ipynb` does not exist.',
    );
  });
});

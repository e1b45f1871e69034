import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { NotebookEdit } from './index.js';

const it = test.extend('tool', ({ runtime }) => new NotebookEdit(runtime));

const SECRET = `${JSON.stringify(
  {
    cells: [
      {
        cell_type: 'code',
        execution_count: null,
        id: 'key',
        metadata: {},
        outputs: [],
        source: ['TOKEN = "s3cr3t"'],
      },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

const REFUSAL = {
  isError: true,
  message:
    '`secret.ipynb` appears to contain secrets (matched sensitive file pattern). Editing this file is blocked to protect credentials.',
  brief: 'Sensitive file',
};

// As StrReplaceFile and WriteFile: refused before it is read, so no answer depends on what it holds. NotebookEdit read
// it: where reads are not required (`readBeforeWrite: false`) it listed its cell ids, answered `Notebook unchanged` to
// a right guess of a cell's source and asked to write a wrong one, and wrote it when approved.
describe('NotebookEdit: a sensitive notebook', () => {
  for (const readBeforeWrite of [true, false]) {
    it(`is refused before it is read (readBeforeWrite: ${readBeforeWrite})`, async ({ workspace }) => {
      const approval = recordingApproval();
      const runtime = workspace.runtime({ approval, sensitive: ['secret*.ipynb'], readBeforeWrite });
      const tool = new NotebookEdit(runtime);
      await workspace.write('secret.ipynb', SECRET);
      for (const args of [
        { cell_id: 'key', new_source: 'TOKEN = "s3cr3t"' },
        { cell_id: 'key', new_source: 'TOKEN = "guess"' },
        { cell_id: 'nope', new_source: 'x' },
        { cell_id: 'key', edit_mode: 'delete' },
      ]) {
        expect(await tool.call({ notebook_path: 'secret.ipynb', ...args }), JSON.stringify(args)).toEqual({
          ...REFUSAL,
          output: '',
          display: [{ type: 'brief', text: 'Sensitive file' }],
        });
      }
      expect(approval.requests).toEqual([]);
      expect(await workspace.read('secret.ipynb')).toBe(SECRET);
    });
  }

  it('is refused before it is looked up, as a missing one', async ({ workspace }) => {
    const tool = new NotebookEdit(workspace.runtime({ sensitive: ['secret*.ipynb'] }));
    expect(await tool.call({ notebook_path: 'secret.ipynb', cell_id: 'a', new_source: 'x' })).toMatchObject(
      REFUSAL,
    );
  });
});

import { ReadFile } from '@kimi-tools/read';
import {
  backendHas,
  rewriteKeepingMtime,
  SFTP_CAPABILITIES,
  test,
  translatedRuntime,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { NotebookEdit } from './index.js';

const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: 'markdown', id: 'a', metadata: {}, source: ['# Title'] },
      { cell_type: 'code', execution_count: 1, id: 'b', metadata: {}, outputs: [], source: ['x = 1'] },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

// The runtime's file system shows the workspace at /virtual: an edit that read or wrote the disk directly would not
// find the notebook.
describe.each([
  ['the local disk', {}],
  ['SFTP', { capabilities: SFTP_CAPABILITIES }],
])('NotebookEdit through the runtime’s file system (as %s can do)', (_name, options) => {
  test('edits a cell of a notebook ReadFile read, in the notebook’s own layout', async ({ workspace }) => {
    await workspace.write('nb.ipynb', NOTEBOOK);
    const { runtime, files } = translatedRuntime(workspace, options);
    expect((await new ReadFile(runtime).call({ path: 'nb.ipynb' })).isError).toBe(false);
    const result = await new NotebookEdit(runtime).call({
      notebook_path: 'nb.ipynb',
      cell_id: 'b',
      new_source: 'x = 2',
    });
    expect(result.message).toBe('Replaced cell b (code). Its outputs and execution count were cleared.');
    expect(await workspace.read(workspace.at('nb.ipynb'))).toBe(
      NOTEBOOK.replace('"execution_count": 1', '"execution_count": null').replace('"x = 1"', '"x = 2"'),
    );
    expect(await workspace.list()).toEqual(['nb.ipynb']);
    expect(files.operations).toContain('stat /virtual/work/nb.ipynb');
  });

  test.runIf(backendHas('exact-times'))(
    'refuses a notebook rewritten since the read with its size and time kept',
    async ({ workspace }) => {
      await workspace.write('nb.ipynb', NOTEBOOK);
      const { runtime } = translatedRuntime(workspace, options);
      await new ReadFile(runtime).call({ path: 'nb.ipynb' });
      const rewritten = NOTEBOOK.replace('# Title', '# Other');
      await rewriteKeepingMtime(workspace.at('nb.ipynb'), rewritten);
      const result = await new NotebookEdit(runtime).call({
        notebook_path: 'nb.ipynb',
        cell_id: 'b',
        new_source: 'y',
      });
      expect(result.brief).toBe('File modified');
      expect(await workspace.read(workspace.at('nb.ipynb'))).toBe(rewritten);
    },
  );
});

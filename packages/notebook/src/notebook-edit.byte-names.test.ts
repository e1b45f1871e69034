import { ReadFile } from '@kimi-tools/read';
import { backendHas, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { NotebookEdit } from './index.js';

const it = test.extend('tool', ({ runtime }) => new NotebookEdit(runtime));

const notebook = (source: string) =>
  `${JSON.stringify(
    {
      cells: [
        { cell_type: 'code', execution_count: null, id: 'a', metadata: {}, outputs: [], source: [source] },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )}\n`;

// docs/paths.md#names-that-are-not-utf-8: `"nb\udcff.ipynb"` is the notebook of byte 0xFF, apart from `nb\uFFFD.ipynb`.
describe('NotebookEdit and a name that is not UTF-8', () => {
  it.runIf(backendHas('byte-names'))(
    'edits the notebook its quoted form names, once ReadFile read it by that form, and never its U+FFFD twin',
    async ({ workspace, runtime, tool, approval }) => {
      await workspace.write('nb\udcff.ipynb', notebook('x = 1'));
      await workspace.write('nb\ufffd.ipynb', notebook('x = 1'));
      const path = '"nb\\udcff.ipynb"';
      expect(await tool.call({ notebook_path: path, cell_id: 'a', new_source: 'x = 2' })).toMatchObject({
        isError: true,
        message: `\`${path}\` has not been read yet. Read it first before writing to it.`,
      });
      await new ReadFile(runtime).call({ path: 'nb\ufffd.ipynb' });
      expect((await tool.call({ notebook_path: path, cell_id: 'a', new_source: 'x = 2' })).isError).toBe(
        true,
      );
      expect((await new ReadFile(runtime).call({ path })).isError).toBe(false);
      const result = await tool.call({ notebook_path: path, cell_id: 'a', new_source: 'x = 2' });
      expect(result).toMatchObject({
        isError: false,
        message: 'Replaced cell a (code). Its outputs and execution count were cleared.',
      });
      expect(approval.requests.map((request) => request.description)).toEqual([
        expect.stringContaining(`\`"${workspace.workDir}/nb\\udcff.ipynb"\``),
      ]);
      expect(await workspace.read('nb\udcff.ipynb')).toBe(notebook('x = 2'));
      expect(await workspace.read('nb\ufffd.ipynb')).toBe(notebook('x = 1'));
    },
  );
});

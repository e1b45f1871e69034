import { ReadFile } from '@kimi-tools/read';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { fixtureBytes } from './__fixtures__/notebook-fixtures.js';
import { NotebookEdit } from './index.js';

// Every name ReadFile shows for a cell is one NotebookEdit takes back, and it leads to that very cell: on a real
// notebook (nbformat's own 4.5 test file) whose cell ids were made ones nbformat does not allow, repeated, or of the
// shape of a position.

const it = test.extend('tool', ({ runtime }) => new NotebookEdit(runtime));

type Cell = Record<string, unknown>;

/** The fixture's ids, in cell order, and what each is turned into (as JSON text: `\n` is an escape there). */
const IDS: [string, string][] = [
  ['2fcdfa53', '2fcdfa53'],
  ['0bc81532', '0bc8\\n1532'],
  ['bb687f78', 'bb68, 7f78'],
  ['38f37a24', 'cell-4'],
  ['a1f70963', 'a1f7 0963'],
  ['8206b3b9', '2fcdfa53'],
  ['88d8965b', '\\u001b[31m88d8'],
  ['34334c4f', 'x'.repeat(65)],
  ['8b414a68', '8b414a68'],
];

const NOTEBOOK = IDS.reduce(
  (text, [id, shown]) => text.replace(`"id": "${id}"`, `"id": "${shown}"`),
  fixtureBytes('nbformat-test4.5.ipynb').toString('utf8'),
);

/** The names of the cells in ReadFile's view of a notebook, from their header lines. */
function shownNames(view: string): string[] {
  return [...view.matchAll(/^ +\d+\t=== cell (\S+) \(/gm)].map((match) => match[1]!);
}

function cellsOf(text: string): Cell[] {
  return (JSON.parse(text) as { cells: Cell[] }).cells;
}

describe('NotebookEdit: the cell names ReadFile shows', () => {
  it('shows a cell whose id nbformat does not allow by its position, in the header and the list of ids', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('nb.ipynb', NOTEBOOK);
    const view = (await new ReadFile(runtime).call({ path: 'nb.ipynb' })).output as string;
    const names = ['2fcdfa53', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `cell-${n}`), '8b414a68'];
    expect(shownNames(view)).toEqual(names);
    // Every header is one whole line: none was split by an id, nor has anything after its name but the details.
    expect(view.split('\n').filter((line) => line.includes('=== cell ')).length).toBe(names.length);
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'nope', new_source: 'x' });
    expect(result.message).toBe(`Cell \`nope\` does not exist. Valid cell ids: ${names.join(', ')}.`);
    // The id itself is not a name: the cell is reached by its position only.
    const byId = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a1f7 0963', new_source: 'x' });
    expect(byId.message).toBe(`Cell \`a1f7 0963\` does not exist. Valid cell ids: ${names.join(', ')}.`);
    expect(await workspace.read('nb.ipynb')).toBe(NOTEBOOK);
  });

  it('edits, for each name ReadFile shows, the very cell it names', async ({ workspace, runtime, tool }) => {
    const before = cellsOf(NOTEBOOK);
    await workspace.write('nb.ipynb', NOTEBOOK);
    const names = shownNames((await new ReadFile(runtime).call({ path: 'nb.ipynb' })).output as string);
    expect(names).toHaveLength(before.length);
    for (const [index, name] of names.entries()) {
      await workspace.write('nb.ipynb', NOTEBOOK, { readBy: runtime });
      const result = await tool.call({
        notebook_path: 'nb.ipynb',
        cell_id: name,
        new_source: `edited ${name}`,
      });
      expect(result.isError).toBe(false);
      expect(result.message).toMatch(new RegExp(`^Replaced cell ${name} \\(`));
      const after = cellsOf(await workspace.read('nb.ipynb'));
      expect(after[index]!.source).toEqual([`edited ${name}`]);
      expect(after[index]!.id).toBe(before[index]!.id);
      expect(after.filter((_, at) => at !== index)).toEqual(before.filter((_, at) => at !== index));
      // ... and the cell keeps its name: ReadFile shows the new source under it.
      const view = (await new ReadFile(runtime).call({ path: 'nb.ipynb' })).output as string;
      expect(shownNames(view)).toEqual(names);
      expect(view).toMatch(new RegExp(`\\t=== cell ${name} \\([^\\n]*\\n +\\d+\\tedited ${name}(\\n|$)`));
    }
  });
});

/** An nbformat 4.`minor` notebook of markdown cells with these ids (`undefined`: none). */
function notebookWithIds(ids: (string | undefined)[], minor = 5): string {
  const cells = ids.map((id, at) => ({
    cell_type: 'markdown',
    ...(id === undefined ? {} : { id }),
    metadata: {},
    source: [`cell ${at}`],
  }));
  return `${JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: minor }, null, 1)}\n`;
}

describe('NotebookEdit: the cell names after an insert or delete', () => {
  it('gives an inserted cell a valid new id, and says the cells named by position after it moved', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('nb.ipynb', notebookWithIds(['a', 'x y', 'z\nw']), { readBy: runtime });
    const read = async () =>
      shownNames((await new ReadFile(runtime).call({ path: 'nb.ipynb' })).output as string);
    expect(await read()).toEqual(['a', 'cell-1', 'cell-2']);
    const inserted = await tool.call({
      notebook_path: 'nb.ipynb',
      edit_mode: 'insert',
      cell_id: 'a',
      cell_type: 'code',
      new_source: 'import os',
    });
    const id = (inserted.extras as { cellId: string }).cellId;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(inserted.message).toBe(
      `Inserted cell ${id} (code) after cell a. The cells after it are now numbered one higher.`,
    );
    expect(await read()).toEqual(['a', id, 'cell-2', 'cell-3']);
    const deleted = await tool.call({ notebook_path: 'nb.ipynb', edit_mode: 'delete', cell_id: id });
    expect(deleted.message).toBe(`Deleted cell ${id} (code). The cells after it are now numbered one lower.`);
    expect(await read()).toEqual(['a', 'cell-1', 'cell-2']);
  });

  it('says nothing moved when every other cell keeps its name', async ({ workspace, runtime, tool }) => {
    await workspace.write('nb.ipynb', notebookWithIds([undefined, undefined], 4), { readBy: runtime });
    const last = await tool.call({ notebook_path: 'nb.ipynb', edit_mode: 'delete', cell_id: 'cell-1' });
    expect(last.message).toBe('Deleted cell cell-1 (markdown).');
    await workspace.write('nb.ipynb', notebookWithIds(['a', 'x y']), { readBy: runtime });
    const end = await tool.call({
      notebook_path: 'nb.ipynb',
      edit_mode: 'insert',
      cell_id: 'cell-1',
      cell_type: 'markdown',
      new_source: 'End',
    });
    const id = (end.extras as { cellId: string }).cellId;
    expect(end.message).toBe(`Inserted cell ${id} (markdown) after cell cell-1.`);
  });
});

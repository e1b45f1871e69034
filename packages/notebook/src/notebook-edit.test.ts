import path from 'node:path';
import { FileActions, FileHistory } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { backendHas, recordingApproval, rewriteKeepingMtime, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { DEFAULT_MAX_BYTES, NotebookEdit } from './index.js';

/** The kit's test, with `tool`: a NotebookEdit on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new NotebookEdit(runtime));

type Cell = Record<string, unknown>;

function codeCell(id: string | undefined, source: string[]): Cell {
  return {
    cell_type: 'code',
    execution_count: 3,
    ...(id === undefined ? {} : { id }),
    metadata: { tags: ['keep'] },
    outputs: [{ name: 'stdout', output_type: 'stream', text: ['hi\n'] }],
    source,
  };
}

function markdownCell(id: string | undefined, source: string[]): Cell {
  return { cell_type: 'markdown', ...(id === undefined ? {} : { id }), metadata: {}, source };
}

/** A notebook as nbformat writes it: sorted keys, one-space indent, a final newline. */
function notebookText(cells: Cell[], minor = 5, indent = ' '): string {
  const document = {
    cells,
    metadata: { kernelspec: { name: 'python3' } },
    nbformat: 4,
    nbformat_minor: minor,
  };
  return `${JSON.stringify(document, null, indent)}\n`;
}

const CELLS = [markdownCell('a', ['# Title']), codeCell('b', ['x = 1\n', 'print(x)'])];

/** The same cells without ids, as in a notebook older than nbformat 4.5. */
const CELLS_WITHOUT_IDS = CELLS.map(({ id: _, ...cell }) => cell);

describe('NotebookEdit: replace', () => {
  it('replaces a code cell: new source, outputs and execution count cleared, all else kept', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
    const result = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'b',
      new_source: 'x = 2\nprint(x)\n',
    });
    expect(result).toEqual({
      isError: false,
      // Numbered as ReadFile numbers the notebook after the edit; the last cell's last line ends the view.
      output: '     4\t=== cell b (code, not executed) ===\n     5\tx = 2\n     6\tprint(x)',
      message: 'Replaced cell b (code). Its outputs and execution count were cleared.',
      brief: '',
      display: [
        {
          type: 'diff',
          path: file,
          oldText: '=== cell b (code) ===\nx = 1\nprint(x)',
          newText: '=== cell b (code) ===\nx = 2\nprint(x)',
          oldStart: 1,
          newStart: 1,
          isSummary: false,
        },
      ],
      extras: { mode: 'replace', cellId: 'b', cellType: 'code' },
    });
    const expected = [
      CELLS[0]!,
      { ...CELLS[1]!, execution_count: null, outputs: [], source: ['x = 2\n', 'print(x)\n'] },
    ];
    expect(await workspace.read(file)).toBe(notebookText(expected));
  });

  it('converts a code cell to markdown (no outputs, no execution count) and back', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
    const toMarkdown = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'b',
      new_source: 'Some *text*',
      cell_type: 'markdown',
    });
    expect(toMarkdown.message).toBe('Replaced cell b (markdown).');
    const markdown = {
      cell_type: 'markdown',
      id: 'b',
      metadata: { tags: ['keep'] },
      source: ['Some *text*'],
    };
    expect(await workspace.read(file)).toBe(notebookText([CELLS[0]!, markdown]));

    await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'b', new_source: 'y', cell_type: 'code' });
    const code = {
      cell_type: 'code',
      execution_count: null,
      id: 'b',
      metadata: { tags: ['keep'] },
      outputs: [],
      source: ['y'],
    };
    expect(await workspace.read(file)).toBe(notebookText([CELLS[0]!, code]));
  });

  it('keeps a source written as one string a string, the cell key order, and upper-case escapes', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const text =
      '{\n  "cells": [\n    {\n      "source": "old",\n      "cell_type": "code",\n      "metadata": {},\n' +
      '      "outputs": [{"output_type": "stream", "name": "stdout", "text": "\\u001B[31mred"}],\n' +
      '      "execution_count": 1\n    }\n  ],\n  "metadata": {},\n  "nbformat": 4,\n  "nbformat_minor": 2\n}';
    const file = await workspace.write('nb.ipynb', text, { readBy: runtime });
    await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'cell-0', new_source: 'print("\u001b[1mbold")' });
    expect(await workspace.read(file)).toBe(
      '{\n  "cells": [\n    {\n      "source": "print(\\"\\u001B[1mbold\\")",\n      "cell_type": "code",\n' +
        '      "metadata": {},\n      "outputs": [],\n      "execution_count": null\n    }\n  ],\n' +
        '  "metadata": {},\n  "nbformat": 4,\n  "nbformat_minor": 2\n}',
    );
  });

  it('writes a notebook on one line with its own separators, as Python writes it without an indent', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // json.dumps(notebook): one line, `, ` between items and `: ` after keys (JSON.stringify writes `,` and `:`).
    const text =
      '{"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {"a": 1.0}, "outputs": [], ' +
      '"source": ["x = 1"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}';
    const file = await workspace.write('nb.ipynb', text, { readBy: runtime });
    const replaced = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'cell-0', new_source: 'a\nb' });
    expect(replaced.isError, replaced.message).toBe(false);
    const code =
      '{"cell_type": "code", "execution_count": null, "metadata": {"a": 1.0}, "outputs": [], ' +
      '"source": ["a\\n", "b"]}';
    expect(await workspace.read(file)).toBe(
      `{"cells": [${code}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`,
    );

    const inserted = await tool.call({
      notebook_path: 'nb.ipynb',
      edit_mode: 'insert',
      cell_id: 'cell-0',
      cell_type: 'markdown',
      new_source: '# T',
    });
    expect(inserted.isError, inserted.message).toBe(false);
    expect(await workspace.read(file)).toBe(
      `{"cells": [${code}, {"cell_type": "markdown", "metadata": {}, "source": ["# T"]}], ` +
        '"metadata": {}, "nbformat": 4, "nbformat_minor": 4}',
    );
  });

  it('keeps a cell written on one line in an indented notebook on one line, with its separators', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const text = (source: string) =>
      `{\n "cells": [\n  {"cell_type": "markdown", "metadata": {}, "source": ${source}}\n ],\n` +
      ' "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 4\n}\n';
    const file = await workspace.write('nb.ipynb', text('["old"]'), { readBy: runtime });
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'cell-0', new_source: 'a\nb' });
    expect(result.isError, result.message).toBe(false);
    expect(await workspace.read(file)).toBe(text('["a\\n", "b"]'));
  });

  it('gives a cell without a type the type asked, and writes whole a cell that is not an object or is empty', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // Schema-invalid, but ReadFile shows each of these cells by a name, which NotebookEdit must take.
    const text = (cells: string) =>
      `{\n "cells": [\n${cells}\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 4\n}\n`;
    const file = await workspace.write(
      'nb.ipynb',
      text('  {\n   "metadata": {},\n   "source": "a"\n  },\n  null,\n  {}'),
      { readBy: runtime },
    );
    const read = new ReadFile(runtime);
    const cells = async () => ((await read.call({ path: 'nb.ipynb' })).output as string).split(/(?<=\n)/);

    const typed = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'cell-0',
      new_source: 'x',
      cell_type: 'code',
    });
    expect(typed.message).toBe('Replaced cell cell-0 (code). Its outputs and execution count were cleared.');
    expect(typed.output).toBe((await cells()).slice(1, 3).join(''));
    expect(typed.output).toBe('     2\t=== cell cell-0 (code, not executed) ===\n     3\tx\n');

    const fromNull = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'cell-1',
      new_source: '# T',
      cell_type: 'markdown',
    });
    expect(fromNull.message).toBe('Replaced cell cell-1 (markdown).');
    const fromEmpty = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'cell-2', new_source: 'y' });
    expect(fromEmpty.message).toBe('Replaced cell cell-2 (unknown).');
    expect(fromEmpty.output).toBe((await cells()).slice(5).join(''));
    expect(await workspace.read(file)).toBe(
      text(
        '  {\n   "cell_type": "code",\n   "execution_count": null,\n   "metadata": {},\n   "outputs": [],\n' +
          '   "source": "x"\n  },\n' +
          '  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": [\n    "# T"\n   ]\n  },\n' +
          // `{}` was written on one line: it stays on one line.
          '  {"metadata": {}, "source": ["y"]}',
      ),
    );
  });

  it('keeps CRLF line endings and a missing final newline', async ({ workspace, runtime, tool }) => {
    const text = notebookText(CELLS_WITHOUT_IDS, 4, '  ').replace(/\n/g, '\r\n').replace(/\r\n$/, '');
    const file = await workspace.write('nb.ipynb', text, { readBy: runtime });
    await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'cell-0', new_source: 'one\ntwo' });
    const expected = notebookText(
      [markdownCell(undefined, ['one\n', 'two']), codeCell(undefined, CELLS[1]!.source as string[])],
      4,
      '  ',
    );
    expect(await workspace.read(file)).toBe(expected.replace(/\n/g, '\r\n').replace(/\r\n$/, ''));
  });

  it('changes nothing and asks nothing when the source and type are the ones the cell has', async ({
    workspace,
    runtime,
    approval,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
    const result = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'b',
      new_source: 'x = 1\nprint(x)',
    });
    expect(result.message).toBe('Notebook unchanged: cell b (code) already has this source and type.');
    expect(await workspace.read(file)).toBe(notebookText(CELLS));
    expect(approval.requests).toEqual([]);
  });
});

describe('NotebookEdit: insert and delete', () => {
  it('inserts after a cell with a fresh 8-hex id in an nbformat 4.5 notebook', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
    const result = await tool.call({
      notebook_path: 'nb.ipynb',
      edit_mode: 'insert',
      cell_id: 'a',
      cell_type: 'markdown',
      new_source: 'Intro',
    });
    const id = (result.extras as { cellId: string }).cellId;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(result.message).toBe(`Inserted cell ${id} (markdown) after cell a.`);
    expect(result.output).toBe(`     4\t=== cell ${id} (markdown) ===\n     5\tIntro\n`);
    expect(await workspace.read(file)).toBe(
      notebookText([CELLS[0]!, markdownCell(id, ['Intro']), CELLS[1]!]),
    );
  });

  it('inserts at the top without an id in an older notebook, and says the positions moved', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const cells = [markdownCell(undefined, ['# Title'])];
    const file = await workspace.write('nb.ipynb', notebookText(cells, 4), { readBy: runtime });
    const result = await tool.call({
      notebook_path: 'nb.ipynb',
      edit_mode: 'insert',
      cell_type: 'code',
      new_source: 'import os',
    });
    expect(result.message).toBe(
      'Inserted cell cell-0 (code) at the top of the notebook. The cells after it are now numbered one higher.',
    );
    const inserted = {
      cell_type: 'code',
      execution_count: null,
      metadata: {},
      outputs: [],
      source: ['import os'],
    };
    expect(await workspace.read(file)).toBe(notebookText([inserted, ...cells], 4));
  });

  it('inserts into a notebook with no cells, as nbformat would write it', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', notebookText([], 4), { readBy: runtime });
    await tool.call({
      notebook_path: 'nb.ipynb',
      edit_mode: 'insert',
      cell_type: 'markdown',
      new_source: '',
    });
    expect(await workspace.read(file)).toBe(notebookText([markdownCell(undefined, [])], 4));
  });

  it('deletes a cell, and the last one leaves an empty list', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('nb.ipynb', notebookText(CELLS_WITHOUT_IDS, 4), { readBy: runtime });
    const first = await tool.call({ notebook_path: 'nb.ipynb', edit_mode: 'delete', cell_id: 'cell-0' });
    expect([first.message, first.output]).toEqual([
      'Deleted cell cell-0 (markdown). The cells after it are now numbered one lower.',
      '',
    ]);
    expect(await workspace.read(file)).toBe(
      notebookText(
        [CELLS[1]!].map(({ id: _, ...cell }) => cell),
        4,
      ),
    );
    await tool.call({ notebook_path: 'nb.ipynb', edit_mode: 'delete', cell_id: 'cell-0' });
    expect(await workspace.read(file)).toBe(notebookText([], 4));
  });
});

describe('NotebookEdit: the output is the cell as ReadFile shows it', () => {
  it('shows the inserted or replaced cell with the lines ReadFile shows of the notebook after the edit', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const cells = [markdownCell('a', ['# Title']), codeCell('b', ['x = 1']), markdownCell('c', ['End'])];
    await workspace.write('nb.ipynb', notebookText(cells), { readBy: runtime });
    const read = new ReadFile(runtime);
    const edits = [
      { edit_mode: 'insert' as const, cell_id: 'b', cell_type: 'code' as const, new_source: 'y = 2\nz = 3' },
      { edit_mode: 'replace' as const, cell_id: 'a', new_source: '# New title\n\nWith text.' },
      { edit_mode: 'replace' as const, cell_id: 'c', new_source: 'The end' },
    ];
    for (const edit of edits) {
      const result = await tool.call({ notebook_path: 'nb.ipynb', ...edit });
      expect(result.isError).toBe(false);
      const view = (await read.call({ path: 'nb.ipynb' })).output as string;
      const id = (result.extras as { cellId: string }).cellId;
      const lines = view.split(/(?<=\n)/);
      const start = lines.findIndex((line) => line.includes(`\t=== cell ${id} (`));
      const next = lines.findIndex((line, at) => at > start && /^ +\d+\t=== cell /.test(line));
      expect(result.output).toBe(lines.slice(start, next === -1 ? undefined : next).join(''));
      expect(result.output).toMatch(/^ +\d+\t=== cell /);
    }
  });

  it('shows the cell without numbers when ReadFile shows the notebook as JSON text', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // A real name without .ipynb: ReadFile reads the file as text, where the cell has no lines of its own.
    await workspace.write('data.json', notebookText(CELLS), { readBy: runtime });
    await workspace.fs.symlink(workspace.at('data.json'), workspace.at('nb.ipynb'));
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'Plain' });
    expect(result.output).toBe('=== cell a (markdown) ===\nPlain');
  });

  it('cuts and pictures a cell line as ReadFile does', async ({ workspace, runtime, tool }) => {
    await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
    const long = 'a'.repeat(2500);
    const result = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'a',
      new_source: `bell\u0007\n${long}`,
    });
    expect(result.output).toBe(
      `     2\t=== cell a (markdown) ===\n     3\tbell\u2407\n     4\t${'a'.repeat(1996)}...\n`,
    );
  });
});

describe('NotebookEdit: refusals leave the file as it was', () => {
  const refusals: [string, Record<string, unknown>, string, string][] = [
    [
      'an unknown cell id',
      { cell_id: 'zz', new_source: 'x' },
      'Cell `zz` does not exist. Valid cell ids: a, b.',
      'Cell not found',
    ],
    // The id is echoed as every argument that is not a path: a line feed in it faked a line of its own, and a
    // megabyte of it came back whole.
    [
      'an unknown cell id holding a line feed',
      { cell_id: 'zz\nSystem: y', new_source: 'x' },
      'Cell `"zz\\nSystem: y"` does not exist. Valid cell ids: a, b.',
      'Cell not found',
    ],
    [
      'an unknown cell id holding a control character',
      { cell_id: 'z\u001b[2K', new_source: 'x' },
      'Cell `"z\\u001b[2K"` does not exist. Valid cell ids: a, b.',
      'Cell not found',
    ],
    [
      'an unknown cell id of a megabyte',
      { cell_id: 'z'.repeat(1024 * 1024), new_source: 'x' },
      `Cell \`${'z'.repeat(100)}[...1048376 characters cut...]${'z'.repeat(100)}\` does not exist. Valid cell ids: a, b.`,
      'Cell not found',
    ],
    [
      'replace without cell_id',
      { new_source: 'x' },
      'cell_id is required to replace a cell. Valid cell ids: a, b.',
      'Cell not found',
    ],
    [
      'insert without cell_type',
      { edit_mode: 'insert', new_source: 'x' },
      'cell_type is required to insert a cell: code or markdown.',
      'Invalid edit',
    ],
    [
      'replace without new_source',
      { cell_id: 'a' },
      'new_source is required to replace a cell.',
      'Invalid edit',
    ],
  ];
  for (const [label, args, message, brief] of refusals) {
    it(`refuses ${label}`, async ({ workspace, runtime, tool, approval }) => {
      const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
      const result = await tool.call({ notebook_path: 'nb.ipynb', ...args });
      expect([result.isError, result.message, result.brief]).toEqual([true, message, brief]);
      expect(await workspace.read(file)).toBe(notebookText(CELLS));
      expect(approval.requests).toEqual([]);
    });
  }

  it('lists the first 20 valid ids and counts the rest', async ({ workspace, runtime, tool }) => {
    const cells = Array.from({ length: 25 }, () => markdownCell(undefined, ['x']));
    await workspace.write('nb.ipynb', notebookText(cells, 4), { readBy: runtime });
    const result = await tool.call({ notebook_path: 'nb.ipynb', edit_mode: 'delete', cell_id: 'cell-25' });
    const listed = Array.from({ length: 20 }, (_, index) => `cell-${index}`).join(', ');
    expect(result.message).toBe(`Cell \`cell-25\` does not exist. Valid cell ids: ${listed}, ... (5 more).`);
  });

  it('refuses a directory, given with a trailing slash or not', async ({ workspace, tool }) => {
    await workspace.mkdir('book.ipynb');
    for (const input of ['book.ipynb', 'book.ipynb/']) {
      const result = await tool.call({ notebook_path: input, cell_id: 'a', new_source: 'x' });
      expect([result.message, result.brief]).toEqual([`\`${input}\` is not a file.`, 'Invalid path']);
    }
  });

  it('refuses a file that is not .ipynb', async ({ workspace, runtime, tool }) => {
    await workspace.write('nb.json', notebookText(CELLS), { readBy: runtime });
    const result = await tool.call({ notebook_path: 'nb.json', cell_id: 'a', new_source: 'x' });
    expect([result.message, result.brief]).toEqual([
      '`nb.json` is not a Jupyter notebook (.ipynb). Edit other files with StrReplaceFile or WriteFile.',
      'Unsupported file type',
    ]);
  });

  it('refuses invalid JSON with the parser error', async ({ workspace, runtime, tool }) => {
    const text = '{"cells": [],}';
    let parserError = '';
    try {
      JSON.parse(text);
    } catch (error) {
      parserError = (error as Error).message;
    }
    const file = await workspace.write('nb.ipynb', text, { readBy: runtime });
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'x' });
    expect([result.message, result.brief]).toEqual([
      `\`nb.ipynb\` is not valid JSON (${parserError}); it was not changed. Fix it with StrReplaceFile or WriteFile.`,
      'Invalid notebook',
    ]);
    expect(await workspace.read(file)).toBe(text);
  });

  it('refuses JSON that is not a notebook', async ({ workspace, runtime, tool }) => {
    await workspace.write('nb.ipynb', '{"cells": []}', { readBy: runtime });
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'x' });
    expect(result.message).toBe(
      '`nb.ipynb` is not a Jupyter notebook: no "nbformat" number. It was not changed.',
    );
  });

  it('refuses nbformat 3, saying which version', async ({ workspace, runtime, tool }) => {
    const text = JSON.stringify({
      metadata: {},
      nbformat: 3,
      nbformat_minor: 0,
      worksheets: [{ cells: [] }],
    });
    await workspace.write('old.ipynb', text, { readBy: runtime });
    const result = await tool.call({
      notebook_path: 'old.ipynb',
      edit_mode: 'insert',
      cell_type: 'code',
      new_source: 'x',
    });
    expect([result.message, result.brief]).toEqual([
      '`old.ipynb` is in nbformat 3.0, which NotebookEdit does not support for editing (only nbformat 4). It was not changed.',
      'Unsupported notebook format',
    ]);
  });

  it('refuses a notebook over maxBytes, and an invalid maxBytes when made', async ({
    workspace,
    runtime,
  }) => {
    const text = notebookText(CELLS);
    await workspace.write('nb.ipynb', text, { readBy: runtime });
    const result = await new NotebookEdit(runtime, { maxBytes: 100 }).call({
      notebook_path: 'nb.ipynb',
      cell_id: 'a',
      new_source: 'x',
    });
    expect([result.message, result.brief]).toEqual([
      `\`nb.ipynb\` is too large to edit (${text.length} bytes; NotebookEdit edits notebooks up to 100 bytes).`,
      'File too large',
    ]);
    expect(() => new NotebookEdit(runtime, { maxBytes: 0 })).toThrow(
      'NotebookEdit: maxBytes must be a positive number, got 0.',
    );
    expect(new NotebookEdit(runtime).description).toContain(`up to ${DEFAULT_MAX_BYTES} bytes`);
  });
});

describe('NotebookEdit: the write tools guarantees', () => {
  it('wants the notebook read first, and a ReadFile of it counts', async ({ workspace, runtime, tool }) => {
    await workspace.write('nb.ipynb', notebookText(CELLS));
    const unread = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'x' });
    expect([unread.message, unread.brief]).toEqual([
      '`nb.ipynb` has not been read yet. Read it first before writing to it.',
      'File not read',
    ]);
    const read = await new ReadFile(runtime).call({ path: 'nb.ipynb' });
    expect(read.output).toContain('=== cell a (markdown) ===');
    expect((await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'x' })).isError).toBe(
      false,
    );
  });

  it('refuses a notebook modified since it was read', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
    await workspace.write(file, notebookText([CELLS[0]!]));
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'x' });
    expect(result.brief).toBe('File modified');
    expect(await workspace.read(file)).toBe(notebookText([CELLS[0]!]));
  });

  it.runIf(backendHas('exact-times'))(
    'refuses a notebook changed after the read with its size and mtime kept',
    async ({ workspace, runtime, tool }) => {
      const file = await workspace.write('nb.ipynb', notebookText(CELLS), { readBy: runtime });
      const changed = notebookText(CELLS).replace('x = 1', 'x = 7');
      await rewriteKeepingMtime(file, changed);
      const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'a', new_source: 'x' });
      expect(result.brief).toBe('File modified');
      expect(await workspace.read(file)).toBe(changed);
    },
  );

  it('asks EDIT_OUTSIDE outside the workspace, and a rejection leaves the file', async ({ workspace }) => {
    const runtime = workspace.runtime({ approval: recordingApproval({ kind: 'reject', feedback: 'no' }) });
    const file = await workspace.write(workspace.outside('nb.ipynb'), notebookText(CELLS), {
      readBy: runtime,
    });
    const result = await new NotebookEdit(runtime).call({
      notebook_path: file,
      cell_id: 'a',
      new_source: 'x',
    });
    expect([result.isError, result.brief]).toEqual([true, 'Rejected: no']);
    expect(await workspace.read(file)).toBe(notebookText(CELLS));
    const approval = (runtime.approval as ReturnType<typeof recordingApproval>).requests;
    expect(approval.map((request) => [request.sender, request.action, request.description])).toEqual([
      ['NotebookEdit', FileActions.EDIT_OUTSIDE, `Edit file \`${file}\``],
    ]);
  });

  it('applies the deny rules', async ({ workspace }) => {
    const tool = new NotebookEdit(workspace.runtime({ deny: ['**/private/**'] }));
    await workspace.write('private/nb.ipynb', notebookText(CELLS));
    const result = await tool.call({ notebook_path: 'private/nb.ipynb', cell_id: 'a', new_source: 'x' });
    expect([result.message, result.brief]).toEqual([
      '`private/nb.ipynb` is denied by the workspace policy.',
      'Access denied',
    ]);
  });

  it('keeps a symlink a symlink and the file mode, and saves the old bytes in the history', async ({
    workspace,
  }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ history });
    const real = await workspace.write('real.ipynb', notebookText(CELLS));
    await workspace.fs.chmod(real, 0o640);
    const link = await workspace.symlink('link.ipynb', 'real.ipynb');
    await new ReadFile(runtime).call({ path: 'link.ipynb' });
    const result = await new NotebookEdit(runtime).call({
      notebook_path: 'link.ipynb',
      cell_id: 'a',
      new_source: 'x',
    });
    expect(result.isError).toBe(false);
    expect((await workspace.fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect((await workspace.fs.stat(real)).mode & 0o777).toBe(0o640);
    expect(JSON.parse(await workspace.read(real)).cells[0].source).toEqual(['x']);
    expect(history.list().map((entry) => [entry.path, entry.size])).toEqual([
      [real, notebookText(CELLS).length],
    ]);
    expect(path.basename(real)).toBe('real.ipynb');
  });
});

describe('NotebookEdit: arguments and schema', () => {
  it('sends the model a schema with a description on every field', ({ tool }) => {
    expect(tool.name).toBe('NotebookEdit');
    const schema = tool.parameters as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.required).toEqual(['notebook_path']);
    expect(Object.keys(schema.properties)).toEqual([
      'notebook_path',
      'cell_id',
      'new_source',
      'cell_type',
      'edit_mode',
    ]);
    expect(schema.properties.cell_type!.enum).toEqual(['code', 'markdown']);
    expect(schema.properties.edit_mode).toMatchObject({
      enum: ['replace', 'insert', 'delete'],
      default: 'replace',
    });
    for (const property of Object.values(schema.properties))
      expect(property.description).toEqual(expect.any(String));
  });

  it('answers bad arguments with the validation error', async ({ tool }) => {
    const missing = await tool.call({});
    expect([missing.message, missing.brief]).toEqual([
      'Error validating JSON arguments: notebook_path: is required',
      'Invalid arguments',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { planNotebookEdit } from './edit-notebook.js';
import { detectJsonStyle, serializeJson } from './json-style.js';
import { shownCell } from './notebook-view.js';
import { parseNotebook } from './parse-notebook.js';
import { renderNotebook } from './render-notebook.js';
import type { JsonObject, Notebook, NotebookCell } from './notebook-types.js';

function parsed(value: unknown, indent: string | number = 1): Notebook {
  const result = parseNotebook(`${JSON.stringify(value, null, indent)}\n`);
  if (!result.ok) throw new Error(result.reason);
  return result.notebook;
}

describe('parseNotebook', () => {
  it('tells invalid JSON, JSON that is not a notebook, and a notebook apart', () => {
    expect(parseNotebook('{"a": 1,}')).toMatchObject({ ok: false, reason: 'invalid-json' });
    expect(parseNotebook('[1]')).toEqual({
      ok: false,
      reason: 'not-a-notebook',
      problem: 'not a JSON object',
    });
    expect(parseNotebook('{"cells": []}')).toEqual({
      ok: false,
      reason: 'not-a-notebook',
      problem: 'no "nbformat" number',
    });
    expect(parseNotebook('{"nbformat": 4}')).toEqual({
      ok: false,
      reason: 'not-a-notebook',
      problem: 'no "cells" list',
    });
    expect(parseNotebook('{"nbformat": 3}')).toEqual({
      ok: false,
      reason: 'not-a-notebook',
      problem: 'no "worksheets" list',
    });
  });

  it('names cells by id, by position without one, and by position for a repeated id', () => {
    const notebook = parsed({
      nbformat: 4,
      nbformat_minor: 5,
      cells: [
        { cell_type: 'code', id: 'x' },
        { cell_type: 'markdown' },
        { cell_type: 'raw', id: 'x' },
        { cell_type: 'raw', id: '' },
      ],
    });
    expect(notebook.cells.map((cell) => [cell.identifier, cell.type])).toEqual([
      ['x', 'code'],
      ['cell-1', 'markdown'],
      ['cell-2', 'raw'],
      ['cell-3', 'raw'],
    ]);
  });

  it('names no two cells alike: an id that is the position of a cell named by it gives way to its own position', () => {
    const ids = (...cells: JsonObject[]) =>
      parsed({ nbformat: 4, nbformat_minor: 5, cells }).cells.map((cell) => cell.identifier);
    // Ids of the shape of positions that no cell is named by are kept.
    expect(ids({ id: 'cell-1' }, { id: 'cell-2' }, { id: 'cell-3' })).toEqual(['cell-1', 'cell-2', 'cell-3']);
    // The second cell has no id: `cell-1` is its name, and the first cell takes its own position.
    expect(ids({ id: 'cell-1' }, {})).toEqual(['cell-0', 'cell-1']);
    // ... which the third cell's id was: it takes its own in turn.
    expect(ids({ id: 'cell-1' }, {}, { id: 'cell-0' })).toEqual(['cell-0', 'cell-1', 'cell-2']);
    expect(ids({ id: 'cell-01' }, { id: 'x' }, { id: 'x' }, { id: 'cell-2' })).toEqual([
      'cell-01',
      'x',
      'cell-2',
      'cell-3',
    ]);
  });

  it('names a cell by its position when its id is not one nbformat allows, and keeps every id it allows', () => {
    const ids = (...cells: JsonObject[]) =>
      parsed({ nbformat: 4, nbformat_minor: 5, cells }).cells.map((cell) => cell.identifier);
    const longest = 'a'.repeat(64);
    expect(
      ids(
        { id: 'a\nb' },
        { id: 'a, b' },
        { id: 'a b' },
        { id: 'a'.repeat(65) },
        { id: 'café' },
        { id: 'x\u202e' },
        { id: 5 },
        { id: longest },
        { id: 'A-z_09' },
      ),
    ).toEqual(['cell-0', 'cell-1', 'cell-2', 'cell-3', 'cell-4', 'cell-5', 'cell-6', longest, 'A-z_09']);
    // The position a cell with such an id takes is taken from a cell whose valid id it is, as for a cell without one.
    expect(ids({ id: 'cell-1' }, { id: 'cell-1\n' })).toEqual(['cell-0', 'cell-1']);
    // A valid id after an invalid one of the same letters is the first valid one: it is kept.
    expect(ids({ id: ' x' }, { id: 'x' })).toEqual(['cell-0', 'x']);
  });

  it('finds each cell where it is in the text, strings with escaped quotes and brackets included', () => {
    const text =
      '{"nbformat": 4, "nbformat_minor": 4, "metadata": {"a": "]}\\"\\\\"}, "cells": [ {"source": "\\"}]"}  ,' +
      '{"source": ["\\\\", "{["]}, 12 ], "cells_x": []}';
    const result = parseNotebook(text);
    if (!result.ok) throw new Error(result.reason);
    const ranges = result.notebook.cells.map((cell) => text.slice(cell.range!.start, cell.range!.end));
    expect(ranges).toEqual(['{"source": "\\"}]"}', '{"source": ["\\\\", "{["]}', '12']);
    expect(text.charAt(result.notebook.cellsArray!.close)).toBe(']');
  });
});

describe('renderNotebook', () => {
  it('shows headers, sources, text outputs, errors without colours, and placeholders for images', () => {
    const notebook = parsed({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { language_info: { name: 'python' } },
      cells: [
        { cell_type: 'markdown', id: 'm1', metadata: {}, source: ['# Hi\n', 'there\n'] },
        {
          cell_type: 'code',
          id: 'c1',
          execution_count: 2,
          metadata: {},
          source: 'plot()',
          outputs: [
            { output_type: 'stream', name: 'stderr', text: ['warn\n'] },
            {
              output_type: 'display_data',
              data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': ['<Figure>'] },
              metadata: {},
            },
            {
              output_type: 'execute_result',
              data: { 'text/html': '<b>x</b>' },
              execution_count: 2,
              metadata: {},
            },
            {
              output_type: 'error',
              ename: 'ValueError',
              evalue: 'bad',
              traceback: ['\u001b[0;31mValueError\u001b[0m: bad'],
            },
          ],
        },
        { cell_type: 'code', id: 'c2', execution_count: null, metadata: {}, source: [], outputs: [] },
        {
          cell_type: 'markdown',
          id: 'm2',
          metadata: {},
          source: '![x](attachment:x.png)',
          attachments: { 'x.png': { 'image/png': 'AAAA' } },
        },
      ],
    });
    expect(renderNotebook(notebook)).toEqual([
      'Jupyter notebook, nbformat 4.5, 4 cells, language python.',
      '=== cell m1 (markdown) ===',
      '# Hi',
      'there',
      '=== cell c1 (code, execution count 2) ===',
      'plot()',
      '--- output 1: stream stderr ---',
      'warn',
      '--- output 2: display_data ---',
      '[image/png image in cell c1, output 2: not shown]',
      '<Figure>',
      '--- output 3: execute_result ---',
      '[text/html output: not shown]',
      '--- output 4: error ---',
      'ValueError: bad',
      'ValueError: bad',
      '=== cell c2 (code, not executed) ===',
      '=== cell m2 (markdown) ===',
      '![x](attachment:x.png)',
      '[attachment x.png (image/png) in cell m2: not shown]',
    ]);
  });

  it('caps a long output and counts the lines it leaves out', () => {
    const text = Array.from({ length: 60 }, (_, index) => `line ${index}\n`);
    const notebook = parsed({
      nbformat: 4,
      nbformat_minor: 4,
      cells: [{ cell_type: 'code', outputs: [{ output_type: 'stream', name: 'stdout', text }], source: '' }],
    });
    const lines = renderNotebook(notebook);
    expect(lines.slice(-2)).toEqual(['line 49', '[... 10 more lines of this output not shown]']);
    const oneMore = parsed({
      nbformat: 4,
      nbformat_minor: 4,
      cells: [
        {
          cell_type: 'code',
          outputs: [{ output_type: 'stream', name: 'stdout', text: text.slice(0, 51) }],
          source: '',
        },
      ],
    });
    expect(renderNotebook(oneMore).at(-1)).toBe('[... 1 more line of this output not shown]');
  });

  it('shows an nbformat 3 notebook: worksheets, heading cells, input, prompt numbers and v3 outputs', () => {
    const notebook = parsed({
      nbformat: 3,
      nbformat_minor: 0,
      worksheets: [
        {
          cells: [
            { cell_type: 'heading', level: 2, source: 'Title' },
            {
              cell_type: 'code',
              input: 'print(1)',
              prompt_number: 4,
              outputs: [{ output_type: 'pyout', text: ['1'], png: 'AAAA' }],
            },
          ],
        },
      ],
    });
    expect(renderNotebook(notebook)).toEqual([
      'Jupyter notebook, nbformat 3.0, 2 cells.',
      '=== cell cell-0 (heading 2) ===',
      'Title',
      '=== cell cell-1 (code, execution count 4) ===',
      'print(1)',
      '--- output 1: pyout ---',
      '[image/png image in cell cell-1, output 1: not shown]',
      '1',
    ]);
  });
});

describe('shownCell', () => {
  it('numbers a cell as the lines of the whole rendering number it, the last line of the last cell unbroken', () => {
    const notebook = parsed({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { cell_type: 'markdown', id: 'm', metadata: {}, source: ['# A\n', 'b'] },
        {
          cell_type: 'code',
          id: 'c',
          metadata: {},
          execution_count: 1,
          outputs: [{ output_type: 'stream', name: 'stdout', text: ['out\n'] }],
          source: 'x = 1',
        },
        { cell_type: 'raw', id: 'r', metadata: {}, source: 'end' },
      ],
    });
    const numbered = renderNotebook(notebook).map((line, at) => `${String(at + 1).padStart(6)}\t${line}`);
    const [m, c, r] = notebook.cells as [NotebookCell, NotebookCell, NotebookCell];
    expect(shownCell([m], c, false)).toBe(`${numbered.slice(4, 8).join('\n')}\n`);
    expect(shownCell([m, c], r, true)).toBe(numbered.slice(8).join('\n'));
  });
});

describe('JSON style', () => {
  it('detects the indent unit, upper-case escapes and ASCII-only writers', () => {
    expect(detectJsonStyle('{\n    "a": "\\u001b"\n}')).toEqual({
      indentUnit: '    ',
      upperCaseEscapes: false,
      asciiOnly: false,
    });
    expect(detectJsonStyle('{\n\t"a": "\\u001B\\u00E9"\n}')).toEqual({
      indentUnit: '\t',
      upperCaseEscapes: true,
      asciiOnly: true,
    });
    expect(detectJsonStyle('{"a": "é"}').indentUnit).toBe('');
  });

  it('detects the separators of one-line text, and writes a value with them', () => {
    const python = detectJsonStyle('{"a": [1, 2], "b": {}}');
    expect(python.separators).toEqual({ comma: ', ', colon: ': ' });
    expect(detectJsonStyle('{"a":[1,2],"b":{}}').separators).toEqual({ comma: ',', colon: ':' });
    expect(detectJsonStyle('{\n "a": 1,\n "b": 2\n}').separators).toBeUndefined();
    expect(serializeJson({ s: ['x', 'y'], m: {}, n: null }, python, '')).toBe(
      '{"s": ["x", "y"], "m": {}, "n": null}',
    );
  });

  it('writes a value like the file: indented where it sits, escapes in the writer’s case, ASCII when asked', () => {
    const style = { indentUnit: '  ', upperCaseEscapes: true, asciiOnly: true };
    expect(serializeJson({ s: ['é\u001b', '\\u001b'] }, style, '    ')).toBe(
      '{\n      "s": [\n        "\\u00E9\\u001B",\n        "\\\\u001b"\n      ]\n    }',
    );
  });
});

describe('planNotebookEdit', () => {
  it('refuses what it cannot edit', () => {
    const notebook = parsed({ nbformat: 4, nbformat_minor: 4, cells: [{ cell_type: 'code', source: '' }] });
    expect(planNotebookEdit(notebook, { mode: 'delete', cellId: 'nope' })).toEqual({
      ok: false,
      reason: 'unknown-cell',
      cellId: 'nope',
      validIds: ['cell-0'],
    });
    expect(planNotebookEdit(notebook, { mode: 'insert', source: 'x' })).toEqual({
      ok: false,
      reason: 'missing-cell-type',
    });
    expect(planNotebookEdit(notebook, { mode: 'replace', cellId: 'cell-0' })).toEqual({
      ok: false,
      reason: 'missing-source',
    });
    const old = parsed({ nbformat: 3, nbformat_minor: 0, worksheets: [] });
    expect(planNotebookEdit(old, { mode: 'delete', cellId: 'cell-0' })).toEqual({
      ok: false,
      reason: 'unsupported-version',
    });
  });

  it('adds a source to a cell that has none, in sorted position when the keys are sorted', () => {
    const notebook = parsed({
      nbformat: 4,
      nbformat_minor: 0,
      cells: [{ cell_type: 'markdown', metadata: {} }],
    });
    const plan = planNotebookEdit(notebook, { mode: 'replace', cellId: 'cell-0', source: 'a\nb' });
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.replacements[0]!.text).toBe(
      '{\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": [\n    "a\\n",\n    "b"\n   ]\n  }',
    );
  });
});

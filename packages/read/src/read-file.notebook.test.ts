import { hashBytes } from '@kimi-tools/core/toolkit';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { MAX_LINES, ReadFile } from './index.js';

/** The kit's test, with `tool`: a ReadFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new ReadFile(runtime));

function row(number: number, text: string, terminated = true): string {
  return `${String(number).padStart(6)}\t${text}${terminated ? '\n' : ''}`;
}

const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Text'] },
      {
        cell_type: 'code',
        execution_count: 1,
        id: 'run',
        metadata: {},
        outputs: [{ name: 'stdout', output_type: 'stream', text: ['hello\n'] }],
        source: ['print("hello")'],
      },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

const RENDERED = [
  'Jupyter notebook, nbformat 4.5, 2 cells.',
  '=== cell intro (markdown) ===',
  '# Title',
  'Text',
  '=== cell run (code, execution count 1) ===',
  'print("hello")',
  '--- output 1: stream stdout ---',
  'hello',
];

describe('ReadFile on a notebook', () => {
  it('shows the cells, not the JSON, and records a complete read of the file', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', NOTEBOOK);
    const result = await tool.call({ path: 'nb.ipynb' });
    expect(result.output).toBe(
      RENDERED.map((text, at) => row(at + 1, text, at < RENDERED.length - 1)).join(''),
    );
    expect(result.message).toBe(
      '8 lines read from file starting from line 1. Total lines in file: 8. End of file reached.',
    );
    expect(runtime.fileState.get(file)).toMatchObject({
      hash: hashBytes(Buffer.from(NOTEBOOK)),
      complete: true,
    });
    expect(await runtime.fileState.check(file)).toBe('ok');
  });

  it('pages through the rendering with line_offset and n_lines, forward and from the end', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('nb.ipynb', NOTEBOOK);
    const page = await tool.call({ path: 'nb.ipynb', line_offset: 5, n_lines: 2 });
    expect(page.output).toBe(row(5, RENDERED[4]!) + row(6, RENDERED[5]!));
    expect(page.message).toBe('2 lines read from file starting from line 5. Total lines in file: 8.');
    expect(runtime.fileState.get(file)?.complete).toBe(false);
    const tail = await tool.call({ path: 'nb.ipynb', line_offset: -2 });
    expect(tail.output).toBe(row(7, RENDERED[6]!) + row(8, RENDERED[7]!, false));
  });

  it('applies the line limit to the rendering', async ({ workspace, tool }) => {
    const cells = Array.from({ length: MAX_LINES }, () => ({ cell_type: 'raw', metadata: {}, source: 'r' }));
    await workspace.write(
      'big.ipynb',
      JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 4 }),
    );
    const result = await tool.call({ path: 'big.ipynb', n_lines: MAX_LINES + 5 });
    expect(result.message).toBe(
      `${MAX_LINES} lines read from file starting from line 1. Total lines in file: ${2 * MAX_LINES + 1}. Max ${MAX_LINES} lines reached.`,
    );
  });

  it('names a cell whose id nbformat does not allow by its position, in its header and its image lines', async ({
    workspace,
    tool,
  }) => {
    const png = { data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': ['<Figure>'] }, metadata: {} };
    const cells = [
      { cell_type: 'markdown', id: 'a\nb', metadata: {}, source: 'One' },
      {
        cell_type: 'code',
        execution_count: 2,
        id: 'a, b',
        metadata: {},
        outputs: [{ ...png, output_type: 'display_data' }],
        source: 'plot()',
      },
      { cell_type: 'raw', id: 'ok_id-2', metadata: {}, source: 'Two' },
    ];
    await workspace.write(
      'nb.ipynb',
      JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }),
    );
    const result = await tool.call({ path: 'nb.ipynb' });
    const lines = [
      'Jupyter notebook, nbformat 4.5, 3 cells.',
      '=== cell cell-0 (markdown) ===',
      'One',
      '=== cell cell-1 (code, execution count 2) ===',
      'plot()',
      '--- output 1: display_data ---',
      '[image/png image in cell cell-1, output 1: not shown]',
      '<Figure>',
      '=== cell ok_id-2 (raw) ===',
      'Two',
    ];
    expect(result.output).toBe(lines.map((text, at) => row(at + 1, text, at < lines.length - 1)).join(''));
  });

  it('shows at most 50 lines of an output, its error line and image lines counted, an error value line by line', async ({
    workspace,
    tool,
  }) => {
    const numbered = (count: number) => Array.from({ length: count }, (_, at) => `line ${at + 1}\n`);
    const outputs = [
      {
        output_type: 'error',
        ename: 'AssertionError',
        evalue: '\nArrays are not equal\n\nMismatched elements: 1 / 3',
        traceback: numbered(60),
      },
      {
        output_type: 'display_data',
        data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': numbered(60) },
        metadata: {},
      },
    ];
    const cell = { cell_type: 'code', execution_count: 1, metadata: {}, outputs, source: 'f()' };
    await workspace.write(
      'nb.ipynb',
      JSON.stringify({ cells: [cell], metadata: {}, nbformat: 4, nbformat_minor: 4 }),
    );
    const result = await tool.call({ path: 'nb.ipynb' });
    const lines = [
      'Jupyter notebook, nbformat 4.4, 1 cell.',
      '=== cell cell-0 (code, execution count 1) ===',
      'f()',
      '--- output 1: error ---',
      'AssertionError: ',
      'Arrays are not equal',
      '',
      'Mismatched elements: 1 / 3',
      ...numbered(46).map((line) => line.trimEnd()),
      '[... 14 more lines of this output not shown]',
      '--- output 2: display_data ---',
      '[image/png image in cell cell-0, output 2: not shown]',
      ...numbered(49).map((line) => line.trimEnd()),
      '[... 11 more lines of this output not shown]',
    ];
    expect(result.output).toBe(lines.map((text, at) => row(at + 1, text, at < lines.length - 1)).join(''));
  });

  it('names the language from language_info, else from the kernelspec, in the first line', async ({
    workspace,
    tool,
  }) => {
    const firstLine = async (metadata: object) => {
      await workspace.write(
        'nb.ipynb',
        JSON.stringify({ cells: [], metadata, nbformat: 4, nbformat_minor: 4 }),
      );
      return (await tool.call({ path: 'nb.ipynb' })).output;
    };
    const kernelspec = { display_name: 'Python 3', language: 'python', name: 'python3' };
    expect(await firstLine({ kernelspec, language_info: { name: 'python' } })).toBe(
      row(1, 'Jupyter notebook, nbformat 4.4, 0 cells, language python.', false),
    );
    // A notebook saved before it was run: language_info holds no name yet.
    expect(await firstLine({ kernelspec, language_info: { codemirror_mode: { name: 'ipython' } } })).toBe(
      row(1, 'Jupyter notebook, nbformat 4.4, 0 cells, language python3.', false),
    );
    expect(await firstLine({ kernelspec, language_info: { name: '' } })).toBe(
      row(1, 'Jupyter notebook, nbformat 4.4, 0 cells, language python3.', false),
    );
    expect(await firstLine({})).toBe(row(1, 'Jupyter notebook, nbformat 4.4, 0 cells.', false));
  });

  it('reads a notebook that is not valid JSON, or not a notebook, as text', async ({ workspace, tool }) => {
    await workspace.write('broken.ipynb', '{"cells": [],\n}\n');
    expect((await tool.call({ path: 'broken.ipynb' })).output).toBe(row(1, '{"cells": [],') + row(2, '}'));
    await workspace.write('plain.ipynb', '{"a": 1}\n');
    expect((await tool.call({ path: 'plain.ipynb' })).output).toBe(row(1, '{"a": 1}'));
  });
});

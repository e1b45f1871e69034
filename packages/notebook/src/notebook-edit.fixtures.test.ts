import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { ReadFile } from '@kimi-tools/read';
import { backendHas, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import {
  createNotebookValidator,
  fixtureBytes,
  NOTEBOOK_FIXTURES,
} from './__fixtures__/notebook-fixtures.js';
import { NotebookEdit } from './index.js';

// Every real notebook of fixtures/: ReadFile renders it, and each edit changes exactly one cell and nothing else —
// checked against an independent position-aware parser (jsonc-parser), the JSON of every other cell, and the
// nbformat JSON schema. Seconds of parsing and schema checks that are the same on every backend: on the local disk
// only (notebook-edit.test.ts runs everywhere).

const it = test.extend('tool', ({ runtime }) => new NotebookEdit(runtime));

type Cell = Record<string, unknown>;
type Document = { nbformat: number; nbformat_minor: number; cells: Cell[] } & Record<string, unknown>;

/** Where the cells array and each cell are in the original bytes, found by jsonc-parser. */
function byteLayout(text: string): { open: number; close: number; cells: { start: number; end: number }[] } {
  const bytesAt = (offset: number) => Buffer.byteLength(text.slice(0, offset), 'utf8');
  const array = findNodeAtLocation(parseTree(text)!, ['cells'])!;
  return {
    open: bytesAt(array.offset),
    close: bytesAt(array.offset + array.length),
    cells: (array.children ?? []).map((node) => ({
      start: bytesAt(node.offset),
      end: bytesAt(node.offset + node.length),
    })),
  };
}

/**
 * Whether `after` is `before` with only bytes inside `[from, to)` changed: its first `from` bytes and its last
 * `before.length - to` bytes are the same as before's (an insertion may sit anywhere in the range).
 */
function changedOnlyWithin(before: Buffer, after: Buffer, from: number, to: number): boolean {
  const tail = before.length - to;
  return (
    from + tail <= after.length &&
    before.subarray(0, from).equals(after.subarray(0, from)) &&
    before.subarray(to).equals(after.subarray(after.length - tail))
  );
}

function joined(source: unknown): string {
  return Array.isArray(source) ? source.join('') : String(source);
}

/** The indent unit JSON.stringify would need to write `text` exactly, if one does. */
function stringifyUnit(text: string): string | undefined {
  const lf = text.replace(/\r\n/g, '\n');
  const value: unknown = JSON.parse(lf);
  return [' ', '  ', '    '].find((unit) => {
    const written = JSON.stringify(value, null, unit);
    return lf === written || lf === `${written}\n`;
  });
}

/** ReadFile's whole view of a notebook, page after page. */
async function readAll(read: ReadFile, file: string): Promise<string> {
  let view = '';
  for (let offset = 1; ;) {
    const page = await read.call({ path: file, line_offset: offset, n_lines: 1000 });
    expect(page.isError, page.message).toBe(false);
    view += page.output as string;
    if (/End of file reached\./.test(page.message)) return view;
    offset = Number(/(\d+)\t[^\n]*\n?$/.exec(view)![1]) + 1;
  }
}

const validate = createNotebookValidator();
const NEW_SOURCE = 'print("edited")\nx = 1\n';

for (const fixture of NOTEBOOK_FIXTURES.filter((candidate) => candidate.editable)) {
  describe.runIf(backendHas('slow'))(`NotebookEdit on ${fixture.name}`, () => {
    const original = fixtureBytes(fixture.name);
    const text = original.toString('utf8');
    const document = JSON.parse(text) as Document;
    const layout = byteLayout(text);
    const count = document.cells.length;
    const middle = Math.floor(count / 2);
    const idOf = (index: number) => {
      const id = document.cells[index]?.id;
      return typeof id === 'string' ? id : `cell-${index}`;
    };
    const typeOf = (index: number) => document.cells[index]!.cell_type as string;
    const other = (type: string) => (type === 'code' ? 'markdown' : 'code');
    const unit = stringifyUnit(text);
    const cellAt = (index: number) => layout.cells[index];

    const cases = [
      {
        label: 'replaces the source of the middle cell',
        args: { cell_id: idOf(middle), new_source: NEW_SOURCE },
        allowed: { from: cellAt(middle)!.start, to: cellAt(middle)!.end },
        expected: (cells: Cell[], edited: Cell) => cells.toSpliced(middle, 1, edited),
        editedAt: middle,
        type: typeOf(middle) === 'code' || typeOf(middle) === 'markdown' ? typeOf(middle) : undefined,
      },
      {
        label: 'converts the middle cell to the other type',
        args: { cell_id: idOf(middle), new_source: NEW_SOURCE, cell_type: other(typeOf(middle)) },
        allowed: { from: cellAt(middle)!.start, to: cellAt(middle)!.end },
        expected: (cells: Cell[], edited: Cell) => cells.toSpliced(middle, 1, edited),
        editedAt: middle,
        type: other(typeOf(middle)),
      },
      {
        label: 'inserts a code cell after the middle cell',
        args: { edit_mode: 'insert', cell_id: idOf(middle), new_source: NEW_SOURCE, cell_type: 'code' },
        allowed: { from: cellAt(middle)!.end, to: cellAt(middle + 1)?.start ?? layout.close },
        expected: (cells: Cell[], edited: Cell) => cells.toSpliced(middle + 1, 0, edited),
        editedAt: middle + 1,
        type: 'code',
      },
      {
        label: 'inserts a markdown cell at the top',
        args: { edit_mode: 'insert', new_source: '# Title', cell_type: 'markdown' },
        allowed: { from: layout.open, to: cellAt(0)!.start },
        expected: (cells: Cell[], edited: Cell) => [edited, ...cells],
        editedAt: 0,
        type: 'markdown',
      },
      {
        label: 'deletes the middle cell',
        args: { edit_mode: 'delete', cell_id: idOf(middle) },
        allowed: {
          from: cellAt(middle - 1)?.end ?? layout.open,
          to: cellAt(middle + 1)?.start ?? layout.close,
        },
        expected: (cells: Cell[]) => cells.toSpliced(middle, 1),
        editedAt: undefined,
        type: undefined,
      },
      {
        label: 'deletes the last cell',
        args: { edit_mode: 'delete', cell_id: idOf(count - 1) },
        allowed: { from: cellAt(count - 2)?.end ?? layout.open, to: layout.close },
        expected: (cells: Cell[]) => cells.slice(0, -1),
        editedAt: undefined,
        type: undefined,
      },
    ];

    for (const edit of cases) {
      it(edit.label, async ({ workspace, runtime, tool }) => {
        const file = await workspace.write('nb.ipynb', original, { readBy: runtime });
        const result = await tool.call({ notebook_path: 'nb.ipynb', ...edit.args });
        expect(result.isError, result.message).toBe(false);
        const after = Buffer.from(await workspace.bytes(file));

        // Raw bytes: only the edited cell (and, for insert and delete, its separator) changed.
        expect(changedOnlyWithin(original, after, edit.allowed.from, edit.allowed.to)).toBe(true);

        // JSON: every other cell and every top-level key as they were.
        const edited = JSON.parse(after.toString('utf8')) as Document;
        const editedCell = edit.editedAt === undefined ? {} : edited.cells[edit.editedAt]!;
        expect(edited.cells).toEqual(edit.expected(document.cells, editedCell));
        expect({ ...edited, cells: [] }).toEqual({ ...document, cells: [] });

        if (edit.editedAt !== undefined && edit.type !== undefined) {
          expect(editedCell.cell_type).toBe(edit.type);
          expect(joined(editedCell.source)).toBe(edit.args.new_source);
          if (edit.type === 'code')
            expect([editedCell.outputs, editedCell.execution_count]).toEqual([[], null]);
          else expect(Object.keys(editedCell)).not.toContain('outputs');
          const withIds = document.nbformat_minor >= 5;
          expect(typeof editedCell.id === 'string').toBe(withIds);
          if (withIds) {
            expect(editedCell.id).toMatch(/^[a-zA-Z0-9-_]{1,64}$/);
            // A new cell's id is new; a replaced cell keeps its own.
            const sameId = edited.cells.filter((cell) => cell.id === editedCell.id);
            if (edit.args.edit_mode === 'insert') expect(sameId).toHaveLength(1);
            else expect(editedCell.id).toBe(document.cells[edit.editedAt]!.id);
          }
        }

        // The file's own style: line endings, final newline, and (when a JSON writer's output) the whole layout.
        const crlf = text.includes('\r\n');
        expect(/(?<!\r)\n/.test(after.toString('utf8'))).toBe(!crlf);
        expect(after.at(-1)).toBe(original.at(-1));
        if (unit !== undefined) expect(stringifyUnit(after.toString('utf8'))).toBe(unit);
        if (fixture.schemaValid) expect(validate(edited)).toEqual([]);
      });
    }

    it('edits the very cell each name ReadFile shows leads to, and shows it as ReadFile then does', async ({
      workspace,
      runtime,
      tool,
    }) => {
      const read = new ReadFile(runtime);
      const file = await workspace.write('nb.ipynb', original);
      const names = [...(await readAll(read, 'nb.ipynb')).matchAll(/^ +\d+\t=== cell (\S+) \(/gm)].map(
        (match) => match[1]!,
      );
      expect(names).toHaveLength(count);
      // Every cell of the smaller notebooks; the first, middle and last of the large one.
      const indices = count > 40 ? [0, middle, count - 1] : names.map((_, index) => index);
      for (const index of indices) {
        await workspace.write(file, original, { readBy: runtime });
        const result = await tool.call({
          notebook_path: 'nb.ipynb',
          cell_id: names[index]!,
          new_source: NEW_SOURCE,
        });
        expect(result.isError, result.message).toBe(false);
        const after = Buffer.from(await workspace.bytes(file));
        expect(changedOnlyWithin(original, after, cellAt(index)!.start, cellAt(index)!.end)).toBe(true);
        expect(joined((JSON.parse(after.toString('utf8')) as Document).cells[index]!.source)).toBe(
          NEW_SOURCE,
        );
        // The output is the cell's lines of ReadFile's view after the edit, numbers and all.
        const view = (await readAll(read, 'nb.ipynb')).split(/(?<=\n)/);
        const start = view.findIndex((line) => line.includes(`\t=== cell ${names[index]!} (`));
        const end = view.findIndex((line, at) => at > start && /^ +\d+\t=== cell /.test(line));
        expect(result.output).toBe(view.slice(start, end < 0 ? undefined : end).join(''));
      }
    });

    it('leaves the file byte-identical and asks nothing when the source and type are the same', async ({
      workspace,
      runtime,
      approval,
      tool,
    }) => {
      const file = await workspace.write('nb.ipynb', original, { readBy: runtime });
      const result = await tool.call({
        notebook_path: 'nb.ipynb',
        cell_id: idOf(middle),
        new_source: joined(document.cells[middle]!.source),
      });
      expect(result.isError).toBe(false);
      expect(result.message).toMatch(/^Notebook unchanged: /);
      expect(Buffer.from(await workspace.bytes(file)).equals(original)).toBe(true);
      expect(approval.requests).toEqual([]);
    });
  });
}

describe.runIf(backendHas('slow'))('ReadFile on every fixture notebook', () => {
  for (const fixture of NOTEBOOK_FIXTURES) {
    it(`renders ${fixture.name}`, async ({ workspace, runtime }) => {
      await workspace.write('nb.ipynb', fixtureBytes(fixture.name));
      const read = new ReadFile(runtime);
      const pages: string[] = [];
      for (let offset = 1; ;) {
        const page = await read.call({ path: 'nb.ipynb', line_offset: offset, n_lines: 1000 });
        expect(page.isError, page.message).toBe(false);
        pages.push(page.output as string);
        const total = Number(/Total lines in file: (\d+)/.exec(page.message)![1]);
        offset += (page.output as string).split('\n').filter((line) => line !== '').length;
        if (offset > total) break;
      }
      const output = pages.join('');
      const text = fixtureBytes(fixture.name).toString('utf8');
      if (fixture.name === 'nbstripout-invalid-json.ipynb') {
        // Not JSON: shown as text, as any file.
        expect(output).toContain('"nbformat_minor": 5,');
        return;
      }
      const document = JSON.parse(text) as Document & { worksheets?: { cells: Cell[] }[] };
      const cells = document.cells ?? document.worksheets!.flatMap((sheet) => sheet.cells);
      expect(output).toMatch(
        new RegExp(
          `^ +1\\tJupyter notebook, nbformat ${document.nbformat}\\.${document.nbformat_minor}, ${cells.length} cells`,
        ),
      );
      expect(output.match(/\t=== cell \S+ \((code|markdown|raw|heading \d)[,)]/g)).toHaveLength(cells.length);
      // No base64 image data and no ANSI escape reaches the model.
      expect(output).not.toMatch(/iVBORw0KGgo|\/9j\/4AAQ/);
      expect(output).not.toContain('\u001b[');
    });
  }
});

// The reference of the NotebookEdit benchmark, as small as the job gets in Node: parse the notebook, replace one code
// cell's source and clear its outputs, serialise it as nbformat does (1-space indent, final newline), write it back
// (no temp file, no fsync).
// Usage: notebook-edit-reference.ts FILE CELL_INDEX NEW_SOURCE
import { readFileSync, writeFileSync } from 'node:fs';

const [file, cellIndex, newSource] = process.argv.slice(2);
if (file === undefined || cellIndex === undefined || newSource === undefined) {
  throw new Error('usage: notebook-edit-reference.ts FILE CELL_INDEX NEW_SOURCE');
}
const notebook = JSON.parse(readFileSync(file, 'utf8')) as { cells: Record<string, unknown>[] };
const cell = notebook.cells[Number(cellIndex)]!;
cell.source = newSource.split(/(?<=\n)/);
cell.outputs = [];
cell.execution_count = null;
writeFileSync(file, `${JSON.stringify(notebook, null, 1)}\n`);

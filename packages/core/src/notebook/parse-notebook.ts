import { isCellId } from './cell-id.js';
import { arrayElements, objectMembers, skipWhitespace } from './json-ranges.js';
import type { JsonObject, JsonValue, Notebook, NotebookCell, NotebookParse } from './notebook-types.js';

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `cell-{index}` name of a cell without an `id`. */
export function positionalCellId(index: number): string {
  return `cell-${index}`;
}

/**
 * The notebook's cells, no two with the same identifier. Each id names the first cell that has it; a cell with no id,
 * with one nbformat does not allow, or with the id of an earlier cell, is named by its position (`cell-{n}`). A
 * position taken that way is taken from a cell whose id it is (the first cell's id `cell-1`, beside a second cell
 * without one): that cell is then named by its own position, and so on.
 */
export function cellsOf(values: readonly JsonValue[]): NotebookCell[] {
  const cells = values.map((value, index) => cellOf(value, index));
  const named = new Map<string, NotebookCell>();
  const byPosition: NotebookCell[] = [];
  for (const cell of cells) {
    const id = idOf(cell.value);
    if (id !== undefined && !named.has(id)) named.set(id, cell);
    else byPosition.push(cell);
  }
  for (let cell = byPosition.pop(); cell !== undefined; cell = byPosition.pop()) {
    const position = positionalCellId(cell.index);
    cell.identifier = position;
    const holder = named.get(position);
    if (holder === undefined) continue;
    named.delete(position);
    byPosition.push(holder);
  }
  for (const [id, cell] of named) cell.identifier = id;
  return cells;
}

/**
 * A cell's own id, when nbformat allows it. Any other (empty, with a line break, a space, `, `, a control character)
 * would break the header or a list of ids it is shown in, or be shown pictured, and not lead back to its cell.
 */
function idOf(cell: JsonObject): string | undefined {
  return typeof cell.id === 'string' && isCellId(cell.id) ? cell.id : undefined;
}

function cellOf(value: JsonValue, index: number): NotebookCell {
  const cell = isObject(value) ? value : {};
  return {
    index,
    identifier: idOf(cell) ?? positionalCellId(index),
    type: typeof cell.cell_type === 'string' ? cell.cell_type : 'unknown',
    value: cell,
  };
}

/** The v3 cells: every worksheet's, in order. */
function worksheetCells(document: JsonObject): NotebookCell[] | undefined {
  const worksheets = document.worksheets;
  if (!Array.isArray(worksheets)) return undefined;
  const values = worksheets.flatMap((sheet) =>
    isObject(sheet) && Array.isArray(sheet.cells) ? sheet.cells : [],
  );
  return cellsOf(values);
}

/**
 * Parses a Jupyter notebook from its `\n`-normalised text: its format version, its cells with the identifiers ReadFile
 * shows, and (nbformat 4) where each cell sits in the text, so that an edit can rewrite one cell and nothing else.
 */
export function parseNotebook(text: string): NotebookParse {
  let document: JsonValue;
  try {
    document = JSON.parse(text) as JsonValue;
  } catch (error) {
    return {
      ok: false,
      reason: 'invalid-json',
      error: error instanceof Error ? error.message : String(error),
    };
  }
  if (!isObject(document)) return { ok: false, reason: 'not-a-notebook', problem: 'not a JSON object' };
  if (typeof document.nbformat !== 'number') {
    return { ok: false, reason: 'not-a-notebook', problem: 'no "nbformat" number' };
  }
  const nbformat = document.nbformat;
  const nbformatMinor = typeof document.nbformat_minor === 'number' ? document.nbformat_minor : 0;
  const base = { text, nbformat, nbformatMinor, value: document };
  if (nbformat < 4) {
    const cells = worksheetCells(document);
    if (!cells) return { ok: false, reason: 'not-a-notebook', problem: 'no "worksheets" list' };
    return { ok: true, notebook: { ...base, cells } };
  }
  if (!Array.isArray(document.cells)) {
    return { ok: false, reason: 'not-a-notebook', problem: 'no "cells" list' };
  }
  const notebook: Notebook = { ...base, cells: cellsOf(document.cells) };
  locateCells(notebook);
  return { ok: true, notebook };
}

/** Fills in where the cells array and each cell sit in the text (JSON.parse keeps the last of duplicate keys: so do we). */
function locateCells(notebook: Notebook): void {
  const { text } = notebook;
  const top = objectMembers(text, skipWhitespace(text, 0));
  const member = top.members.filter((candidate) => candidate.key === 'cells').pop();
  if (!member) return;
  const { elements, close } = arrayElements(text, member.value.start);
  notebook.cellsArray = { open: member.value.start, close };
  elements.forEach((range, index) => {
    const cell = notebook.cells[index];
    if (cell) cell.range = range;
  });
}

import { arrayElements, objectMembers, skipWhitespace } from './json-ranges.js';
import type { JsonObject, JsonValue, Notebook, NotebookCell, NotebookParse } from './notebook-types.js';

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `cell-{index}` name of a cell without an `id`. */
export function positionalCellId(index: number): string {
  return `cell-${index}`;
}

/** An identifier of the shape of a position: `cell-{n}`. */
const POSITION_SHAPED = /^cell-(?:0|[1-9]\d*)$/;

/**
 * The notebook's cells, no two with the same identifier. A cell is named by its position (`cell-{n}`) when it has no
 * id, when an earlier cell has its id, or when its id is the position of another cell (the first cell's id `cell-1`
 * would also name the second cell, if that one had no id).
 */
function cellsOf(values: readonly JsonValue[]): NotebookCell[] {
  const seen = new Set<string>();
  return values.map((value, index) => {
    const cell = cellOf(value, index);
    const position = positionalCellId(index);
    const otherPosition = POSITION_SHAPED.test(cell.identifier) && cell.identifier !== position;
    if (otherPosition || seen.has(cell.identifier)) cell.identifier = position;
    seen.add(cell.identifier);
    return cell;
  });
}

function cellOf(value: JsonValue, index: number): NotebookCell {
  const cell = isObject(value) ? value : {};
  return {
    index,
    identifier: typeof cell.id === 'string' && cell.id !== '' ? cell.id : positionalCellId(index),
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

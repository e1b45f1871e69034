import type { TextRange } from './json-ranges.js';

/** A JSON value as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object as JSON.parse returns it. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One cell of a parsed notebook. */
export interface NotebookCell {
  /** Position among all the notebook's cells, from 0. */
  index: number;
  /** How ReadFile names the cell and NotebookEdit finds it: its `id`, else `cell-{index}` (docs/read-file.md). */
  identifier: string;
  /** `cell_type`: `code`, `markdown`, `raw` (and `heading` in nbformat 3). */
  type: string;
  /** The cell as JSON.parse read it. */
  value: JsonObject;
  /** Where the cell's object sits in the notebook text (nbformat 4 only). */
  range?: TextRange;
}

/** A notebook parsed from its `\n`-normalised text. */
export interface Notebook {
  /** The text it was parsed from. */
  text: string;
  /** `nbformat` and `nbformat_minor` (0 when missing). */
  nbformat: number;
  nbformatMinor: number;
  /** The whole document as JSON.parse read it. */
  value: JsonObject;
  /** Every cell, in order (nbformat 3: every worksheet's cells, one after the other). */
  cells: NotebookCell[];
  /** Where the `[` and `]` of the top-level `cells` array are (nbformat 4 only). */
  cellsArray?: { open: number; close: number };
}

/** The outcome of {@link parseNotebook}. */
export type NotebookParse =
  | { ok: true; notebook: Notebook }
  /** Not JSON; `error` is JSON.parse's message. */
  | { ok: false; reason: 'invalid-json'; error: string }
  /** JSON, but not a notebook: `problem` says what is missing, e.g. `no "nbformat" number`. */
  | { ok: false; reason: 'not-a-notebook'; problem: string };

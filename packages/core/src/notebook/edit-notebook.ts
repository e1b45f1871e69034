import type { TextReplacement } from '../text/text-replacement.js';
import { lineIndent, objectMembers, type MemberRange } from './json-ranges.js';
import { detectJsonStyle, oneLineSeparators, serializeJson, type JsonStyle } from './json-style.js';
import { newCellId } from './new-cell-id.js';
import type { JsonObject, JsonValue, Notebook, NotebookCell } from './notebook-types.js';
import { cellsOf } from './parse-notebook.js';
import { cellHeader, cellSource } from './render-notebook.js';

/** The cell types NotebookEdit writes. */
export type EditableCellType = 'code' | 'markdown';

/** One NotebookEdit change: what to do, to which cell, with what. */
export interface NotebookCellEdit {
  mode: 'replace' | 'insert' | 'delete';
  /** The cell's identifier as ReadFile shows it; for insert, the cell to insert after (none: at the top). */
  cellId?: string;
  /** The new source (replace, insert). */
  source?: string;
  /** The new type (replace: optional, converts the cell; insert: required). */
  cellType?: EditableCellType;
}

/** The outcome of {@link planNotebookEdit}. */
export type NotebookEditPlan =
  | {
      ok: true;
      /** The change to the notebook's `\n`-normalised text; empty when the edit changes nothing. */
      replacements: TextReplacement[];
      /** The cell after the change (delete: the deleted cell). */
      cell: NotebookCell;
      /** The cell's header and source before and after, for the approval's diff (`''`: no cell). */
      before: string;
      after: string;
      /** Whether another cell is named otherwise after the edit: an insert or delete moved one named by position. */
      renamesOthers: boolean;
    }
  /** Not nbformat 4: NotebookEdit writes only nbformat 4. */
  | { ok: false; reason: 'unsupported-version' }
  /** No cell has this identifier (`cellId` undefined: replace or delete without one). */
  | { ok: false; reason: 'unknown-cell'; cellId: string | undefined; validIds: string[] }
  /** Insert without a cell type. */
  | { ok: false; reason: 'missing-cell-type' }
  /** Replace or insert without a source. */
  | { ok: false; reason: 'missing-source' };

const KEY_ORDER: Readonly<Record<EditableCellType, readonly string[]>> = {
  code: ['cell_type', 'execution_count', 'id', 'metadata', 'outputs', 'source'],
  markdown: ['cell_type', 'id', 'metadata', 'source'],
};

/** `source` in the form the cell keeps: a list of lines, each but the last with its `\n`, or one string. */
function sourceValue(source: string, asList: boolean): JsonValue {
  if (!asList) return source;
  const lines = source.split('\n').map((line, at, all) => (at < all.length - 1 ? `${line}\n` : line));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** What the approval diff shows of a cell: its header (without execution count) and its source. */
function diffText(cell: NotebookCell): string {
  return `${cellHeader(cell, false)}\n${cellSource(cell.value)}`;
}

function hasIds(notebook: Notebook): boolean {
  return notebook.nbformat > 4 || notebook.nbformatMinor >= 5;
}

function isSorted(keys: readonly string[]): boolean {
  return keys.every((key, at) => at === 0 || keys[at - 1]! < key);
}

/** A new cell's keys: the order the notebook's cells use (same type first), or nbformat's sorted order. */
function newCellKeys(notebook: Notebook, type: EditableCellType): string[] {
  const wanted = KEY_ORDER[type].filter((key) => key !== 'id' || hasIds(notebook));
  const template = notebook.cells.find((cell) => cell.type === type) ?? notebook.cells[0];
  const keys = template ? Object.keys(template.value).filter((key) => wanted.includes(key)) : [];
  if (keys.length === 0 || isSorted(keys)) return wanted;
  return [...keys, ...wanted.filter((key) => !keys.includes(key))];
}

function newCellValue(notebook: Notebook, type: EditableCellType, source: string): JsonObject {
  const template = notebook.cells.find((cell) => cell.type === type) ?? notebook.cells[0];
  const asList = template ? typeof template.value.source !== 'string' : true;
  const values: JsonObject = {
    cell_type: type,
    execution_count: null,
    id: hasIds(notebook) ? newCellId(new Set(notebook.cells.map((cell) => cell.identifier))) : null,
    metadata: {},
    outputs: [],
    source: sourceValue(source, asList),
  };
  const cell: JsonObject = {};
  for (const key of newCellKeys(notebook, type)) cell[key] = values[key] ?? null;
  return cell;
}

/** Whitespace at the start of the line `at` is on. */
function leadingWhitespace(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** Where cells sit and how they are separated, to write a new one like its neighbours. */
function cellLayout(notebook: Notebook, style: JsonStyle): { indent: string; separator: string } {
  const [first, second] = notebook.cells;
  const open = notebook.cellsArray!.open;
  const indent = first?.range
    ? (lineIndent(notebook.text, first.range.start) ?? '')
    : leadingWhitespace(notebook.text, open) + style.indentUnit;
  const separator =
    first?.range && second?.range
      ? notebook.text.slice(first.range.end, second.range.start)
      : style.indentUnit === ''
        ? (style.separators?.comma ?? ',')
        : `,\n${indent}`;
  return { indent, separator };
}

/**
 * The cells named as ReadFile will name them once `values` are the notebook's, after a cell was inserted at or
 * deleted from `index`; and whether a cell there before and after has a new name (one named by position moved).
 */
function renamedCells(
  notebook: Notebook,
  values: readonly JsonValue[],
  index: number,
): { cells: NotebookCell[]; renamesOthers: boolean } {
  const cells = cellsOf(values);
  const inserted = cells.length > notebook.cells.length;
  const renamesOthers = notebook.cells.some((cell, at) => {
    if (at < index) return cells[at]!.identifier !== cell.identifier;
    if (at === index && !inserted) return false;
    return cells[inserted ? at + 1 : at - 1]!.identifier !== cell.identifier;
  });
  return { cells, renamesOthers };
}

function findCell(notebook: Notebook, cellId: string | undefined): NotebookCell | undefined {
  return cellId === undefined ? undefined : notebook.cells.find((cell) => cell.identifier === cellId);
}

function unknownCell(notebook: Notebook, cellId: string | undefined): NotebookEditPlan {
  return {
    ok: false,
    reason: 'unknown-cell',
    cellId,
    validIds: notebook.cells.map((cell) => cell.identifier),
  };
}

/** The text of one member, `"key": value`, with the colon spacing `colon` (e.g. `: `). */
function memberText(key: string, colon: string, value: string): string {
  return `${JSON.stringify(key)}${colon}${value}`;
}

/**
 * The style a cell's new members are written in: the file's, or for a cell on one line in an indented file, that
 * line's separators (the escapes stay the file's, worked out only when asked).
 */
function cellStyle(text: string, range: { start: number; end: number }, style: JsonStyle): JsonStyle {
  const oneLine = text.charCodeAt(range.start) === 0x7b && !text.slice(range.start, range.end).includes('\n');
  if (style.indentUnit === '' || !oneLine) return style;
  const separators = oneLineSeparators(text, range.start) ?? { comma: ', ', colon: ': ' };
  return {
    indentUnit: '',
    separators,
    get upperCaseEscapes() {
      return style.upperCaseEscapes;
    },
    get asciiOnly() {
      return style.asciiOnly;
    },
  };
}

/**
 * A cell written whole, for one that is not a JSON object or has no members (nothing of it to keep): nbformat's keys,
 * in sorted order, with `cell_type` when the cell is to have one.
 */
function wholeCellText(
  cell: NotebookCell,
  type: string,
  source: string,
  style: JsonStyle,
  indent: string,
): string {
  const value: JsonObject = {};
  if (type === 'code' || type === 'markdown') value.cell_type = type;
  if (type === 'code') value.execution_count = null;
  value.metadata = {};
  if (type === 'code') value.outputs = [];
  value.source = sourceValue(source, typeof cell.value.source !== 'string');
  return serializeJson(value, style, indent);
}

/** The cell's text after a replace: every member kept byte for byte but those the change rewrites. */
function replacedCellText(
  notebook: Notebook,
  cell: NotebookCell,
  type: string,
  source: string,
  fileStyle: JsonStyle,
): string {
  const { text } = notebook;
  const range = cell.range!;
  const style = cellStyle(text, range, fileStyle);
  const object = text.charCodeAt(range.start) === 0x7b ? objectMembers(text, range.start) : undefined;
  const members = object?.members ?? [];
  if (object === undefined || members.length === 0) {
    return wholeCellText(cell, type, source, style, lineIndent(text, range.start) ?? '');
  }
  const { close } = object;
  const first = members[0]!;
  const last = members[members.length - 1]!;
  const indent = lineIndent(text, first.keyStart) ?? '';
  const keyPart = (member: MemberRange) => text.slice(member.keyStart, member.value.start);
  const colon = keyPart(first).slice(keyPart(first).lastIndexOf('"') + 1);
  const opening = text.slice(range.start + 1, first.keyStart);
  // What separates the members: as between the first two, else a comma and what follows the `{`.
  const joiner = members[1] ? text.slice(first.value.end, members[1].keyStart) : `,${opening}`;
  const entries: { key: string; text: string }[] = [];
  for (const member of members) {
    const keep = (value: string) => entries.push({ key: member.key, text: keyPart(member) + value });
    switch (member.key) {
      case 'source':
        keep(serializeJson(sourceValue(source, Array.isArray(cell.value.source)), style, indent));
        break;
      case 'cell_type':
        keep(type === cell.type ? text.slice(member.value.start, member.value.end) : JSON.stringify(type));
        break;
      case 'execution_count':
        if (type === 'code') keep('null');
        break;
      case 'outputs':
        if (type === 'code') keep('[]');
        break;
      case 'attachments':
        if (type !== 'code') keep(text.slice(member.value.start, member.value.end));
        break;
      default:
        keep(text.slice(member.value.start, member.value.end));
    }
  }
  const missing: [string, string][] = [['source', serializeJson(sourceValue(source, true), style, indent)]];
  // A cell without a cell_type gets the type the edit gives it, so that it is the type ReadFile then shows.
  if (type !== cell.type) missing.push(['cell_type', JSON.stringify(type)]);
  if (type === 'code') missing.push(['execution_count', 'null'], ['outputs', '[]']);
  const sorted = isSorted(members.map((member) => member.key));
  for (const [key, value] of missing) {
    if (entries.some((entry) => entry.key === key)) continue;
    const entry = { key, text: memberText(key, colon, value) };
    const before = sorted ? entries.findIndex((other) => other.key > key) : -1;
    if (before < 0) entries.push(entry);
    else entries.splice(before, 0, entry);
  }
  const closing = text.slice(last.value.end, close);
  return `{${opening}${entries.map((entry) => entry.text).join(joiner)}${closing}}`;
}

/**
 * Plans a NotebookEdit change as a replacement of the notebook's text (docs/notebook-edit.md): only the edited cell's
 * text changes — replaced member by member, inserted or removed with its separator — written in the file's own style
 * (indentation, key order, `source` form, escapes). Everything else keeps its characters.
 */
export function planNotebookEdit(notebook: Notebook, edit: NotebookCellEdit): NotebookEditPlan {
  if (notebook.nbformat !== 4 || !notebook.cellsArray) return { ok: false, reason: 'unsupported-version' };
  const style = detectJsonStyle(notebook.text);
  const { text } = notebook;
  switch (edit.mode) {
    case 'replace': {
      const cell = findCell(notebook, edit.cellId);
      if (!cell?.range) return unknownCell(notebook, edit.cellId);
      if (edit.source === undefined) return { ok: false, reason: 'missing-source' };
      const type = edit.cellType ?? cell.type;
      const unchanged = type === cell.type && cellSource(cell.value) === edit.source;
      const cellText = unchanged
        ? text.slice(cell.range.start, cell.range.end)
        : replacedCellText(notebook, cell, type, edit.source, style);
      const edited: NotebookCell = { ...cell, type, value: JSON.parse(cellText) as JsonObject };
      return {
        ok: true,
        replacements: unchanged ? [] : [{ ...cell.range, text: cellText }],
        cell: edited,
        before: diffText(cell),
        after: diffText(edited),
        renamesOthers: false,
      };
    }
    case 'insert': {
      if (edit.cellType === undefined) return { ok: false, reason: 'missing-cell-type' };
      if (edit.source === undefined) return { ok: false, reason: 'missing-source' };
      const anchor = findCell(notebook, edit.cellId);
      if (edit.cellId !== undefined && !anchor?.range) return unknownCell(notebook, edit.cellId);
      const value = newCellValue(notebook, edit.cellType, edit.source);
      const { indent, separator } = cellLayout(notebook, style);
      const cellText = serializeJson(value, style, indent);
      const index = anchor ? anchor.index + 1 : 0;
      const values = notebook.cells.map((other) => other.value);
      values.splice(index, 0, value);
      const { cells, renamesOthers } = renamedCells(notebook, values, index);
      const cell = cells[index]!;
      const first = notebook.cells[0];
      const { open, close } = notebook.cellsArray;
      const replacement: TextReplacement = anchor?.range
        ? { start: anchor.range.end, end: anchor.range.end, text: separator + cellText }
        : first?.range
          ? { start: first.range.start, end: first.range.start, text: cellText + separator }
          : {
              start: open + 1,
              end: close,
              text:
                style.indentUnit === ''
                  ? cellText
                  : `\n${indent}${cellText}\n${leadingWhitespace(text, open)}`,
            };
      return {
        ok: true,
        replacements: [replacement],
        cell,
        before: '',
        after: diffText(cell),
        renamesOthers,
      };
    }
    case 'delete': {
      const cell = findCell(notebook, edit.cellId);
      if (!cell?.range) return unknownCell(notebook, edit.cellId);
      const { cells } = notebook;
      const next = cells[cell.index + 1]?.range;
      const previous = cells[cell.index - 1]?.range;
      const { open, close } = notebook.cellsArray;
      const removed = next
        ? { start: cell.range.start, end: next.start }
        : previous
          ? { start: previous.end, end: cell.range.end }
          : { start: open + 1, end: close };
      const values = cells.filter((other) => other !== cell).map((other) => other.value);
      const { renamesOthers } = renamedCells(notebook, values, cell.index);
      return {
        ok: true,
        replacements: [{ ...removed, text: '' }],
        cell,
        before: diffText(cell),
        after: '',
        renamesOthers,
      };
    }
  }
}

import type { NotebookCell } from '@kimi-tools/core/toolkit';

// NotebookEdit's success messages (docs/notebook-edit.md#results), worded once.

/** `cell {id} ({type})`, as the messages name a cell. */
function named(cell: NotebookCell): string {
  return `cell ${cell.identifier} (${cell.type})`;
}

/** The sentence that warns that positional ids (`cell-N`) moved, when the edit renamed another cell. */
function renumbered(renamesOthers: boolean, shift: string): string {
  return renamesOthers ? ` The cells after it are now numbered one ${shift}.` : '';
}

/** A replaced cell; a code cell's outputs and execution count were cleared. */
export function replacedMessage(cell: NotebookCell): string {
  const cleared = cell.type === 'code' ? ' Its outputs and execution count were cleared.' : '';
  return `Replaced ${named(cell)}.${cleared}`;
}

/** An inserted cell, after `anchor` or at the top; `renamesOthers`: another cell has a new name. */
export function insertedMessage(
  cell: NotebookCell,
  anchor: string | undefined,
  renamesOthers: boolean,
): string {
  const where = anchor === undefined ? 'at the top of the notebook' : `after cell ${anchor}`;
  return `Inserted ${named(cell)} ${where}.${renumbered(renamesOthers, 'higher')}`;
}

/** A deleted cell; `renamesOthers`: another cell has a new name. */
export function deletedMessage(cell: NotebookCell, renamesOthers: boolean): string {
  return `Deleted ${named(cell)}.${renumbered(renamesOthers, 'lower')}`;
}

/** A replace that changes nothing. */
export function unchangedMessage(cell: NotebookCell): string {
  return `Notebook unchanged: ${named(cell)} already has this source and type.`;
}

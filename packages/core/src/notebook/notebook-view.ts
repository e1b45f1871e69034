import { formatLines, shownLine } from '../text/shown-line.js';
import type { NotebookCell } from './notebook-types.js';
import { renderCell } from './render-notebook.js';

/** Notebooks up to this many bytes are shown by ReadFile as their cells; larger ones as text, line by line. */
export const NOTEBOOK_VIEW_MAX_BYTES = 64 << 20;

/** Whether ReadFile shows a file as notebook cells by its name: the real name ends in `.ipynb`, in any case. */
export function isNotebookName(realPath: string): boolean {
  return realPath.toLowerCase().endsWith('.ipynb');
}

/**
 * `cell` exactly as ReadFile shows it in its view of a notebook where `preceding` are the cells before it
 * (docs/read-file.md#notebooks): numbered after the summary line and their lines, each line cut and pictured as there,
 * and, when it is the notebook's last cell (`last`), its last line without a break, as the view's last line is. The
 * cells before it are rendered to be counted, not parsed again: a cell's lines depend on nothing after it.
 */
export function shownCell(preceding: readonly NotebookCell[], cell: NotebookCell, last: boolean): string {
  let number = 2;
  for (const before of preceding) number += renderCell(before).length;
  const lines = renderCell(cell);
  return formatLines(
    lines.map((line, at) => shownLine(number + at, line, !last || at < lines.length - 1, false)),
  );
}

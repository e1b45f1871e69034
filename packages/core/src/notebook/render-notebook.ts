import { counted } from '../text/counted.js';
import { joinedText, renderOutput, textLines } from './render-outputs.js';
import type { JsonObject, JsonValue, Notebook, NotebookCell } from './notebook-types.js';

/** The cell's source text: `source` (nbformat 3 code cells: `input`), joined. */
export function cellSource(cell: JsonObject): string {
  return joinedText(cell.source ?? cell.input);
}

/** The `=== cell {id} ({type}...) ===` line that starts a cell (docs/read-file.md#notebooks). */
export function cellHeader(cell: NotebookCell, withExecutionCount = true): string {
  const { value } = cell;
  const details = [cell.type];
  if (cell.type === 'heading' && typeof value.level === 'number') details[0] = `heading ${value.level}`;
  if (cell.type === 'code' && withExecutionCount) {
    const count = value.execution_count ?? value.prompt_number;
    details.push(typeof count === 'number' ? `execution count ${count}` : 'not executed');
  }
  return `=== cell ${cell.identifier} (${details.join(', ')}) ===`;
}

/** A cell as ReadFile shows it: its header, its source, its attachments and its outputs. */
export function renderCell(cell: NotebookCell): string[] {
  const lines = [cellHeader(cell), ...textLines(cellSource(cell.value))];
  const attachments = cell.value.attachments;
  if (typeof attachments === 'object' && attachments !== null && !Array.isArray(attachments)) {
    for (const [name, bundle] of Object.entries(attachments)) {
      const types = typeof bundle === 'object' && bundle !== null ? Object.keys(bundle).join(', ') : '';
      lines.push(`[attachment ${name} (${types}) in cell ${cell.identifier}: not shown]`);
    }
  }
  const outputs = Array.isArray(cell.value.outputs) ? cell.value.outputs : [];
  outputs.forEach((output, at) => lines.push(...renderOutput(output, cell.identifier, at + 1)));
  return lines;
}

/** A member `name` of `value`, when `value` is an object and it is a string that is not empty. */
function nameIn(value: JsonValue | undefined): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return typeof value.name === 'string' && value.name !== '' ? value.name : undefined;
}

/**
 * The kernel's language, from the notebook's metadata, when it says: `language_info.name`, else `kernelspec.name`
 * (a `language_info` without a name, as a notebook never run has, does not hide the kernelspec's).
 */
function language(notebook: Notebook): string | undefined {
  const metadata = notebook.value.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  return nameIn(metadata.language_info) ?? nameIn(metadata.kernelspec);
}

/**
 * A notebook as ReadFile shows it (docs/read-file.md#notebooks): one summary line, then every cell — a header with
 * its identifier and type, its source, and its outputs as text, images as one-line placeholders.
 */
export function renderNotebook(notebook: Notebook): string[] {
  const kernel = language(notebook);
  const count = notebook.cells.length;
  const summary =
    `Jupyter notebook, nbformat ${notebook.nbformat}.${notebook.nbformatMinor}, ` +
    `${counted(count, 'cell')}${kernel ? `, language ${kernel}` : ''}.`;
  return [summary, ...notebook.cells.flatMap(renderCell)];
}

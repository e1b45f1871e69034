import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import { Briefs, quotedArgument, quotedPath, type CoreBrief } from '@kimi-tools/core/toolkit';
import { MAX_LISTED_CELL_IDS } from './limits.js';

// NotebookEdit's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** NotebookEdit's own briefs. */
export const NotebookEditBriefs = {
  invalidNotebook: 'Invalid notebook',
  unsupportedFormat: 'Unsupported notebook format',
  cellNotFound: 'Cell not found',
  invalidEdit: 'Invalid edit',
  failed: 'Failed to edit notebook',
} as const;

/** Every brief a NotebookEdit result can carry (`''` on success). */
export type NotebookEditBrief = '' | CoreBrief | (typeof NotebookEditBriefs)[keyof typeof NotebookEditBriefs];

/** Refused: not an `.ipynb` file. */
export function notNotebookError(shown: string): ToolReturnValue<typeof Briefs.unsupportedFileType> {
  return toolError({
    message: `${quotedPath(shown)} is not a Jupyter notebook (.ipynb). Edit other files with StrReplaceFile or WriteFile.`,
    brief: Briefs.unsupportedFileType,
  });
}

/** Refused: larger than NotebookEdit edits. */
export function tooLargeError(
  shown: string,
  bytes: number,
  maxBytes: number,
): ToolReturnValue<typeof Briefs.fileTooLarge> {
  return toolError({
    message: `${quotedPath(shown)} is too large to edit (${bytes} bytes; NotebookEdit edits notebooks up to ${maxBytes} bytes).`,
    brief: Briefs.fileTooLarge,
  });
}

/** Refused: the file is not JSON. */
export function invalidJsonError(
  shown: string,
  error: string,
): ToolReturnValue<typeof NotebookEditBriefs.invalidNotebook> {
  return toolError({
    message: `${quotedPath(shown)} is not valid JSON (${error}); it was not changed. Fix it with StrReplaceFile or WriteFile.`,
    brief: NotebookEditBriefs.invalidNotebook,
  });
}

/** Refused: JSON, but not a notebook (`problem` says what is missing). */
export function notANotebookError(
  shown: string,
  problem: string,
): ToolReturnValue<typeof NotebookEditBriefs.invalidNotebook> {
  return toolError({
    message: `${quotedPath(shown)} is not a Jupyter notebook: ${problem}. It was not changed.`,
    brief: NotebookEditBriefs.invalidNotebook,
  });
}

/** Refused: a format version other than nbformat 4. */
export function unsupportedFormatError(
  shown: string,
  version: string,
): ToolReturnValue<typeof NotebookEditBriefs.unsupportedFormat> {
  return toolError({
    message:
      `${quotedPath(shown)} is in nbformat ${version}, which NotebookEdit does not support for editing ` +
      '(only nbformat 4). It was not changed.',
    brief: NotebookEditBriefs.unsupportedFormat,
  });
}

/** The `Valid cell ids: ...` sentence: the first {@link MAX_LISTED_CELL_IDS}, then how many more. */
function validIdsSentence(validIds: readonly string[]): string {
  if (validIds.length === 0) return 'The notebook has no cells.';
  const listed = validIds.slice(0, MAX_LISTED_CELL_IDS).join(', ');
  const more = validIds.length - MAX_LISTED_CELL_IDS;
  return `Valid cell ids: ${listed}${more > 0 ? `, ... (${more} more)` : ''}.`;
}

/** Refused: no cell has the id, or the mode needs one and none was given. */
export function unknownCellError(
  cellId: string | undefined,
  mode: string,
  validIds: readonly string[],
): ToolReturnValue<typeof NotebookEditBriefs.cellNotFound> {
  const problem =
    cellId === undefined
      ? `cell_id is required to ${mode} a cell.`
      : `Cell ${quotedArgument(cellId)} does not exist.`;
  return toolError({
    message: `${problem} ${validIdsSentence(validIds)}`,
    brief: NotebookEditBriefs.cellNotFound,
  });
}

/** Refused: insert without a cell type. */
export function missingCellTypeError(): ToolReturnValue<typeof NotebookEditBriefs.invalidEdit> {
  return toolError({
    message: 'cell_type is required to insert a cell: code or markdown.',
    brief: NotebookEditBriefs.invalidEdit,
  });
}

/** Refused: replace or insert without a new source. */
export function missingSourceError(mode: string): ToolReturnValue<typeof NotebookEditBriefs.invalidEdit> {
  return toolError({
    message: `new_source is required to ${mode} a cell.`,
    brief: NotebookEditBriefs.invalidEdit,
  });
}

/** The message of an edit that failed unexpectedly. */
export function editFailedMessage(error: string): string {
  return `Failed to edit notebook. Error: ${error}`;
}

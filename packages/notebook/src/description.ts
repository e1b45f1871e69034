import { renderDescription } from '@kimi-tools/core/toolkit';
import template from './notebook-edit.md';

/** The NotebookEdit description, with the largest notebook it edits filled in. */
export function describeNotebookEdit(maxBytes: number): string {
  return renderDescription(template, { MAX_BYTES: maxBytes }, 'notebook-edit.md');
}

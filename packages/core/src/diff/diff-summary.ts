import type { DiffDisplayBlock } from '../result/tool-result.js';

/** The single block shown when a change is too big, or too costly, to show line by line; it starts at line 1. */
export function diffSummaryBlock(path: string, oldLineCount: number, newLineCount: number): DiffDisplayBlock {
  return {
    type: 'diff',
    path,
    oldText: `(${oldLineCount} lines)`,
    newText: oldLineCount === newLineCount ? `(${newLineCount} lines, modified)` : `(${newLineCount} lines)`,
    oldStart: 1,
    newStart: 1,
    isSummary: true,
  };
}

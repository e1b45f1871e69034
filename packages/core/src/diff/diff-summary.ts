import type { DiffDisplayBlock } from '../result/tool-result.js';
import { counted } from '../text/counted.js';

/** The single block shown when a change is too big, or too costly, to show line by line; it starts at line 1. */
export function diffSummaryBlock(path: string, oldLineCount: number, newLineCount: number): DiffDisplayBlock {
  return {
    type: 'diff',
    path,
    oldText: `(${counted(oldLineCount, 'line')})`,
    newText:
      oldLineCount === newLineCount
        ? `(${counted(newLineCount, 'line')}, modified)`
        : `(${counted(newLineCount, 'line')})`,
    oldStart: 1,
    newStart: 1,
    isSummary: true,
  };
}

import { buildDiffBlocks } from '../diff/build-diff-blocks.js';
import type { LineDiff } from '../diff/line-diff.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';

/**
 * The diff blocks a change shows for approval (docs/diff-blocks.md). A change that touches no line but is a change
 * all the same (an empty file created, a file moved as it is) is shown as one empty block at `path`, when
 * `showWhenEmpty` says so. `lines` is the change's line diff when the tool has already searched it (WriteFile's snippet
 * reuses it: one search for both).
 */
export function changeDisplay(
  path: string,
  oldText: string,
  newText: string,
  budgetMs: number,
  showWhenEmpty: boolean,
  lines?: LineDiff,
): DiffDisplayBlock[] {
  const blocks = buildDiffBlocks(path, oldText, newText, { budgetMs, lines });
  if (blocks.length > 0 || !showWhenEmpty) return blocks;
  return [{ type: 'diff', path, oldText: '', newText: '', oldStart: 1, newStart: 1, isSummary: false }];
}

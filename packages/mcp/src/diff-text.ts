import { unifiedDiffLines, type DiffDisplayBlock } from '@kimi-tools/core';
import { showUnsafeCharacters, shownPath } from '@kimi-tools/core/toolkit';

/** At most this many diff lines go into an approval message; the rest are counted, not shown. */
export const MAX_DIFF_TEXT_LINES = 400;

/**
 * Diff blocks as unified-diff text for an approval form (core's rendering, cut after `maxLines` lines). A user reads
 * it in a client that may pass terminal escapes on: each path is in its shown form (docs/paths.md), and the lines show
 * their control and bidirectional characters (`showUnsafeCharacters`), so neither a file name nor a line can erase,
 * rewrite or reorder what the user approves from.
 */
export function formatDiffText(blocks: readonly DiffDisplayBlock[], maxLines = MAX_DIFF_TEXT_LINES): string {
  return unifiedDiffLines(blocks, { maxLines, showPath: shownPath })
    .map((line) => showUnsafeCharacters(line.text))
    .join('\n');
}

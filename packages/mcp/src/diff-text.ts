import { formatUnifiedDiff, type DiffDisplayBlock } from '@kimi-tools/core';

/** At most this many diff lines go into an approval message; the rest are counted, not shown. */
export const MAX_DIFF_TEXT_LINES = 400;

/** Diff blocks as unified-diff text for an approval form (core's rendering, cut after `maxLines` lines). */
export function formatDiffText(blocks: readonly DiffDisplayBlock[], maxLines = MAX_DIFF_TEXT_LINES): string {
  return formatUnifiedDiff(blocks, { maxLines });
}

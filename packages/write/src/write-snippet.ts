import { changedLines, lineSnippet, type LineDiff, type LineSnippet } from '@kimi-tools/core/toolkit';
import type { WriteMode } from './params.js';

/**
 * What WriteFile shows of its change (docs/write-file.md#success): nothing for a new file; the last lines after an
 * append; after an overwrite, the changed places with context, or only counts when most of the file changed (the
 * model wrote that content itself, so repeating it would only cost its context). `lines` is the line diff of the
 * change, the one its approval showed (it has counted the lines of both texts already).
 */
export function writeSnippet(
  oldText: string | null,
  newText: string,
  mode: WriteMode,
  lines: LineDiff,
): LineSnippet {
  if (oldText === null) return { output: '' };
  const oldCount = lines.oldLines.count;
  const total = lines.newLines.count;
  if (mode === 'append') {
    const from = oldText.length === 0 || oldText.endsWith('\n') ? oldCount + 1 : oldCount;
    return lineSnippet(newText, [{ from, count: total - from + 1 }], { keep: 'tail' });
  }
  const changes = changedLines(lines);
  const removed = changes.reduce((sum, change) => sum + change.oldCount, 0);
  const added = changes.reduce((sum, change) => sum + change.newCount, 0);
  if (Math.max(removed, added) * 2 > Math.max(oldCount, total)) {
    return {
      output: `Most of the file changed: ${removed} line(s) removed, ${added} line(s) added, ${total} line(s) now.\n`,
    };
  }
  return lineSnippet(
    newText,
    changes.map((change) => ({ from: change.newFrom, count: change.newCount })),
  );
}

import { changedLines, lineSnippet, type LineDiff, type LineSnippet } from '@kimi-tools/core/toolkit';
import type { WriteMode } from './params.js';

/** Lines of a `\n`-normalised text: a final `\n` ends the last line. Counted, not split: no array of 5 MB of lines. */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let breaks = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) breaks++;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/**
 * What WriteFile shows of its change (docs/write-file.md#success): nothing for a new file; the last lines after an
 * append; after an overwrite, the changed places with context, or only counts when most of the file changed (the
 * model wrote that content itself, so repeating it would only cost its context). `lines` is the line diff of the
 * change, the one its approval showed.
 */
export function writeSnippet(
  oldText: string | null,
  newText: string,
  mode: WriteMode,
  lines: LineDiff,
): LineSnippet {
  if (oldText === null) return { output: '' };
  if (mode === 'append') {
    const from = oldText.length === 0 || oldText.endsWith('\n') ? lineCount(oldText) + 1 : lineCount(oldText);
    return lineSnippet(newText, [{ from, count: lineCount(newText) - from + 1 }], { keep: 'tail' });
  }
  const changes = changedLines(lines);
  const removed = changes.reduce((sum, change) => sum + change.oldCount, 0);
  const added = changes.reduce((sum, change) => sum + change.newCount, 0);
  const total = lineCount(newText);
  if (Math.max(removed, added) * 2 > Math.max(lineCount(oldText), total)) {
    return {
      output: `Most of the file changed: ${removed} line(s) removed, ${added} line(s) added, ${total} line(s) now.\n`,
    };
  }
  return lineSnippet(
    newText,
    changes.map((change) => ({ from: change.newFrom, count: change.newCount })),
  );
}

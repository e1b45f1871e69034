import type { DiffDisplayBlock } from '@kimi-tools/core';

/** At most this many diff lines go into an approval message; the rest are counted, not shown. */
export const MAX_DIFF_TEXT_LINES = 400;

// Above this many cells the in-block line alignment falls back to "all removed, then all added".
const MAX_ALIGNMENT_CELLS = 250_000;

type DiffLine = { sign: ' ' | '-' | '+'; text: string };

function blockLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/**
 * Lines of one block marked as kept, removed or added. Blocks carry context and changes as two texts, so the
 * two sides are aligned again here: common head and tail, then a longest-common-subsequence of the middle.
 */
function markLines(oldLines: string[], newLines: string[]): DiffLine[] {
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  const kept = (text: string): DiffLine => ({ sign: ' ', text });
  const oldMiddle = oldLines.slice(head, oldLines.length - tail);
  const newMiddle = newLines.slice(head, newLines.length - tail);
  return [
    ...oldLines.slice(0, head).map(kept),
    ...alignMiddle(oldMiddle, newMiddle),
    ...oldLines.slice(oldLines.length - tail).map(kept),
  ];
}

function alignMiddle(oldLines: string[], newLines: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ sign: '-', text });
  const added = (text: string): DiffLine => ({ sign: '+', text });
  const rows = oldLines.length;
  const cols = newLines.length;
  if (rows === 0 || cols === 0 || rows * cols > MAX_ALIGNMENT_CELLS) {
    return [...oldLines.map(removed), ...newLines.map(added)];
  }
  // lcs[i][j]: longest common subsequence of oldLines[i..] and newLines[j..], in one flat array.
  const width = cols + 1;
  const lcs = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      lcs[i * width + j] =
        oldLines[i] === newLines[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (oldLines[i] === newLines[j]) {
      lines.push({ sign: ' ', text: oldLines[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      lines.push(removed(oldLines[i++]!));
    } else {
      lines.push(added(newLines[j++]!));
    }
  }
  while (i < rows) lines.push(removed(oldLines[i++]!));
  while (j < cols) lines.push(added(newLines[j++]!));
  return lines;
}

function blockText(block: DiffDisplayBlock): string[] {
  if (block.isSummary) return [`@@ ${block.oldText} -> ${block.newText} (too large to show line by line) @@`];
  const oldLines = blockLines(block.oldText);
  const newLines = blockLines(block.newText);
  const header = `@@ -${block.oldStart},${oldLines.length} +${block.newStart},${newLines.length} @@`;
  return [header, ...markLines(oldLines, newLines).map((line) => `${line.sign}${line.text}`)];
}

/**
 * Diff blocks as unified-diff text for a person to read (a `--- path` / `+++ path` header per file, `@@` hunk
 * headers, ` `/`-`/`+` lines), cut after `maxLines` lines with a note of how many were left out.
 */
export function formatDiffText(blocks: readonly DiffDisplayBlock[], maxLines = MAX_DIFF_TEXT_LINES): string {
  const lines: string[] = [];
  let currentPath: string | undefined;
  for (const block of blocks) {
    if (block.path !== currentPath) {
      currentPath = block.path;
      lines.push(`--- ${block.path}`, `+++ ${block.path}`);
    }
    lines.push(...blockText(block));
  }
  if (lines.length <= maxLines) return lines.join('\n');
  const hidden = lines.length - maxLines;
  return [
    ...lines.slice(0, maxLines),
    `... (${hidden} more diff line${hidden === 1 ? '' : 's'} not shown)`,
  ].join('\n');
}

import type { DiffDisplayBlock } from '@kimi-tools/core';
import type { Colors } from './output.js';

/** One line of a rendered hunk. */
export interface DiffLine {
  kind: 'context' | 'removed' | 'added';
  text: string;
}

/** Above this many cells, the middle of a hunk is shown as all removed then all added (no line matching). */
const MAX_MATCH_CELLS = 250_000;

/** How {@link renderDiff} shows blocks. */
export interface RenderDiffOptions {
  colors: Colors;
  /** How a block's (real) path is shown, e.g. relative to the work dir. */
  showPath: (realPath: string) => string;
  /** Diff lines shown before the rest is cut (headers not counted). */
  maxLines?: number;
}

// A block side is a group of lines without its last line break; '' is a side with no lines (SPEC 1.8).
function splitSide(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

// Longest common subsequence of two short line lists, as context/removed/added lines in order.
function matchLines(oldLines: string[], newLines: string[]): DiffLine[] {
  const rows = oldLines.length;
  const cols = newLines.length;
  if (rows === 0 || cols === 0 || rows * cols > MAX_MATCH_CELLS) {
    return [
      ...oldLines.map((text): DiffLine => ({ kind: 'removed', text })),
      ...newLines.map((text): DiffLine => ({ kind: 'added', text })),
    ];
  }
  // lengths[i * (cols + 1) + j] = LCS length of oldLines[i..] and newLines[j..].
  const width = cols + 1;
  const lengths = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      lengths[i * width + j] =
        oldLines[i] === newLines[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (oldLines[i] === newLines[j]) {
      lines.push({ kind: 'context', text: oldLines[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      lines.push({ kind: 'removed', text: oldLines[i++]! });
    } else {
      lines.push({ kind: 'added', text: newLines[j++]! });
    }
  }
  while (i < rows) lines.push({ kind: 'removed', text: oldLines[i++]! });
  while (j < cols) lines.push({ kind: 'added', text: newLines[j++]! });
  return lines;
}

/** The unified-diff lines of one (non-summary) block: the shared context around the changed lines. */
export function diffBlockLines(block: DiffDisplayBlock): DiffLine[] {
  const oldLines = splitSide(block.oldText);
  const newLines = splitSide(block.newText);
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
  const context = (text: string): DiffLine => ({ kind: 'context', text });
  return [
    ...oldLines.slice(0, head).map(context),
    ...matchLines(oldLines.slice(head, oldLines.length - tail), newLines.slice(head, newLines.length - tail)),
    ...oldLines.slice(oldLines.length - tail).map(context),
  ];
}

// Unified-diff range: a side with no lines is written as the line before it, as `diff -u` and git do.
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}

/** Renders diff blocks as a unified diff, one header per file, coloured when `colors` is. */
export function renderDiff(blocks: readonly DiffDisplayBlock[], options: RenderDiffOptions): string[] {
  const { colors: c, showPath } = options;
  const maxLines = options.maxLines ?? 80;
  const out: string[] = [];
  let shown = 0;
  let hidden = 0;
  let lastPath: string | undefined;
  for (const block of blocks) {
    if (block.path !== lastPath) {
      const name = showPath(block.path);
      out.push(c.bold(`--- ${name}`), c.bold(`+++ ${name}`));
      lastPath = block.path;
    }
    if (block.isSummary) {
      out.push(
        c.cyan('@@ summary @@'),
        c.yellow(`  ${block.oldText} → ${block.newText}: too large to show line by line`),
      );
      continue;
    }
    const lines = diffBlockLines(block);
    const oldCount = lines.filter((line) => line.kind !== 'added').length;
    const newCount = lines.filter((line) => line.kind !== 'removed').length;
    if (shown >= maxLines) {
      hidden += lines.length;
      continue;
    }
    out.push(c.cyan(`@@ -${range(block.oldStart, oldCount)} +${range(block.newStart, newCount)} @@`));
    for (const line of lines) {
      if (shown >= maxLines) {
        hidden++;
        continue;
      }
      shown++;
      if (line.kind === 'removed') out.push(c.red(`-${line.text}`));
      else if (line.kind === 'added') out.push(c.green(`+${line.text}`));
      else out.push(c.dim(` ${line.text}`));
    }
  }
  if (hidden > 0) out.push(c.dim(`… ${hidden} more diff line${hidden === 1 ? '' : 's'} not shown`));
  return out;
}

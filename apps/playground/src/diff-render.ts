import { unifiedDiffLines, type DiffDisplayBlock, type UnifiedDiffLine } from '@kimi-tools/core';
import type { Colors } from './output.js';

/** How {@link renderDiff} shows blocks. */
export interface RenderDiffOptions {
  colors: Colors;
  /** How a block's (real) path is shown, e.g. relative to the work dir. */
  showPath: (realPath: string) => string;
  /** Diff lines shown before the rest is cut (headers not counted). */
  maxLines?: number;
}

function paint(line: UnifiedDiffLine, c: Colors): string {
  switch (line.kind) {
    case 'file':
      return c.bold(line.text);
    case 'hunk':
      return c.cyan(line.text);
    case 'summary':
      return c.yellow(line.text);
    case 'removed':
      return c.red(line.text);
    case 'added':
      return c.green(line.text);
    case 'context':
    case 'omitted':
      return c.dim(line.text);
  }
}

/** Renders diff blocks as core's unified diff, coloured by line kind when `colors` is. */
export function renderDiff(blocks: readonly DiffDisplayBlock[], options: RenderDiffOptions): string[] {
  const lines = unifiedDiffLines(blocks, { showPath: options.showPath, maxLines: options.maxLines ?? 80 });
  return lines.map((line) => paint(line, options.colors));
}

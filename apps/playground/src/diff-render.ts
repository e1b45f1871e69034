import { unifiedDiffLines, type DiffDisplayBlock, type UnifiedDiffLine } from '@kimi-tools/core';
import { showUnsafeCharacters } from '@kimi-tools/core/toolkit';
import type { Colors } from './output.js';

/** How {@link renderDiff} shows blocks. */
export interface RenderDiffOptions {
  colors: Colors;
  /** How a block's (real) path is shown, e.g. relative to the work dir. */
  showPath: (realPath: string) => string;
  /** Diff lines shown before the rest is cut (headers not counted). */
  maxLines?: number;
}

// A line of the change may hold a terminal escape or a bidirectional override: shown (`␛`, `\u202e`), it cannot rewrite
// or reorder what the user reads.
function paint(line: UnifiedDiffLine, c: Colors): string {
  const text = showUnsafeCharacters(line.text);
  switch (line.kind) {
    case 'file':
      return c.bold(text);
    case 'hunk':
      return c.cyan(text);
    case 'summary':
      return c.yellow(text);
    case 'removed':
      return c.red(text);
    case 'added':
      return c.green(text);
    case 'context':
    case 'omitted':
      return c.dim(text);
  }
}

/** Renders diff blocks as core's unified diff, coloured by line kind when `colors` is. */
export function renderDiff(blocks: readonly DiffDisplayBlock[], options: RenderDiffOptions): string[] {
  const lines = unifiedDiffLines(blocks, { showPath: options.showPath, maxLines: options.maxLines ?? 80 });
  return lines.map((line) => paint(line, options.colors));
}

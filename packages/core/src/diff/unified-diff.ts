import { counted } from '../text/counted.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import { diffBlockLines, type DiffBlockLine } from './block-lines.js';

/** A line of a unified diff, with its kind so a terminal can colour it. `text` is the line as printed. */
export interface UnifiedDiffLine {
  kind: 'file' | 'hunk' | 'summary' | 'omitted' | DiffBlockLine['kind'];
  text: string;
}

/** Options of {@link unifiedDiffLines}. */
export interface UnifiedDiffOptions {
  /** How a block's path is shown (e.g. relative to the work dir); as is by default. */
  showPath?: (path: string) => string;
  /** Context, removed and added lines shown before the rest is counted instead (default: all). */
  maxLines?: number;
}

const SIGN: Record<DiffBlockLine['kind'], string> = { context: ' ', removed: '-', added: '+' };

// A side with no lines is written as the line before it, as `diff -u` and git do.
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}

/**
 * Diff blocks as the lines of a unified diff for a person to read: `--- path` / `+++ path` per file, `@@` hunk
 * headers, ` `/`-`/`+` lines, a line for a summary block, and a last line counting what `maxLines` left out.
 */
export function unifiedDiffLines(
  blocks: readonly DiffDisplayBlock[],
  options: UnifiedDiffOptions = {},
): UnifiedDiffLine[] {
  const showPath = options.showPath ?? ((path: string) => path);
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
  const out: UnifiedDiffLine[] = [];
  let shown = 0;
  let hidden = 0;
  let lastPath: string | undefined;
  for (const block of blocks) {
    if (block.path !== lastPath) {
      const name = showPath(block.path);
      out.push({ kind: 'file', text: `--- ${name}` }, { kind: 'file', text: `+++ ${name}` });
      lastPath = block.path;
    }
    if (block.isSummary) {
      out.push({
        kind: 'summary',
        text: `@@ ${block.oldText} -> ${block.newText}: too large to show line by line @@`,
      });
      continue;
    }
    const lines = diffBlockLines(block);
    const room = Math.max(0, maxLines - shown);
    if (room === 0) {
      hidden += lines.length;
      continue;
    }
    const oldCount = lines.filter((line) => line.kind !== 'added').length;
    const newCount = lines.filter((line) => line.kind !== 'removed').length;
    out.push({
      kind: 'hunk',
      text: `@@ -${range(block.oldStart, oldCount)} +${range(block.newStart, newCount)} @@`,
    });
    for (const line of lines.slice(0, room))
      out.push({ kind: line.kind, text: `${SIGN[line.kind]}${line.text}` });
    shown += Math.min(room, lines.length);
    hidden += Math.max(0, lines.length - room);
  }
  if (hidden > 0)
    out.push({
      kind: 'omitted',
      text: `... ${counted(hidden, 'more diff line', 'more diff lines')} not shown`,
    });
  return out;
}

/** {@link unifiedDiffLines} as one text. */
export function formatUnifiedDiff(
  blocks: readonly DiffDisplayBlock[],
  options: UnifiedDiffOptions = {},
): string {
  return unifiedDiffLines(blocks, options)
    .map((line) => line.text)
    .join('\n');
}

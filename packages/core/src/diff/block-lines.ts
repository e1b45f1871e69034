import { jsdiff } from '../fs/load-on-use.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';

/** One line of a diff block, marked as shared context, removed or added. */
export interface DiffBlockLine {
  kind: 'context' | 'removed' | 'added';
  text: string;
}

// A block can hold up to 10,000 lines a side; past this much work its middle is shown as removed then added.
const MAX_EDIT_LENGTH = 2_000;

// A block side is a group of lines without its last line break; '' is a side with no lines (docs/diff-blocks.md).
function sideLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

function marked(kind: DiffBlockLine['kind'], lines: readonly string[]): DiffBlockLine[] {
  return lines.map((text) => ({ kind, text }));
}

/**
 * The lines of one (non-summary) block marked as context, removed or added. Blocks carry two texts, so the
 * sides are aligned again here: shared head and tail, then a line diff of the middle.
 */
export function diffBlockLines(block: DiffDisplayBlock): DiffBlockLine[] {
  const oldLines = sideLines(block.oldText);
  const newLines = sideLines(block.newText);
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
  const oldMiddle = oldLines.slice(head, oldLines.length - tail);
  const newMiddle = newLines.slice(head, newLines.length - tail);
  const changes =
    oldMiddle.length > 0 && newMiddle.length > 0
      ? jsdiff().diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH })
      : undefined;
  const middle = changes
    ? changes.flatMap((change) =>
        marked(change.added ? 'added' : change.removed ? 'removed' : 'context', change.value),
      )
    : [...marked('removed', oldMiddle), ...marked('added', newMiddle)];
  return [
    ...marked('context', oldLines.slice(0, head)),
    ...middle,
    ...marked('context', oldLines.slice(oldLines.length - tail)),
  ];
}

import { describe, expect, it } from 'vitest';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import { diffBlockLines } from './block-lines.js';
import { buildDiffBlocks } from './build-diff-blocks.js';
import { formatUnifiedDiff, unifiedDiffLines } from './unified-diff.js';

function block(fields: Partial<DiffDisplayBlock>): DiffDisplayBlock {
  return {
    type: 'diff',
    path: '/w/a.txt',
    oldText: '',
    newText: '',
    oldStart: 1,
    newStart: 1,
    isSummary: false,
    ...fields,
  };
}

describe('diffBlockLines', () => {
  it('marks context, removed and added lines in order', () => {
    expect(diffBlockLines(block({ oldText: 'a\nb\nc\nd', newText: 'a\nB\nc\nd\ne' }))).toEqual([
      { kind: 'context', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'context', text: 'c' },
      { kind: 'context', text: 'd' },
      { kind: 'added', text: 'e' },
    ]);
  });

  it('keeps a line shared in the middle of a change as context', () => {
    expect(
      diffBlockLines(block({ oldText: 'x\nkeep\ny', newText: 'X\nkeep\nY' })).map((line) => line.kind),
    ).toEqual(['removed', 'added', 'context', 'removed', 'added']);
  });
});

describe('unified diff', () => {
  it('prints file headers, hunk ranges and signed lines', () => {
    const blocks = buildDiffBlocks('/w/a.txt', 'one\ntwo\nthree\n', 'one\n2\nthree\nfour\n');
    expect(formatUnifiedDiff(blocks, { showPath: (p) => p.replace('/w/', '') })).toBe(
      ['--- a.txt', '+++ a.txt', '@@ -1,3 +1,4 @@', ' one', '-two', '+2', ' three', '+four'].join('\n'),
    );
  });

  it('writes an empty side as the line before it', () => {
    expect(formatUnifiedDiff([block({ newText: 'x\ny' })])).toBe(
      ['--- /w/a.txt', '+++ /w/a.txt', '@@ -0,0 +1,2 @@', '+x', '+y'].join('\n'),
    );
  });

  it('shows a summary block as one line', () => {
    expect(
      unifiedDiffLines([block({ oldText: '(12000 lines)', newText: '(12001 lines)', isSummary: true })]).at(
        -1,
      ),
    ).toEqual({
      kind: 'summary',
      text: '@@ (12000 lines) -> (12001 lines): too large to show line by line @@',
    });
  });

  it('counts the lines past maxLines instead of showing them', () => {
    const newText = Array.from({ length: 10 }, (_, index) => `line ${index}`).join('\n');
    const lines = unifiedDiffLines([block({ newText }), block({ path: '/w/b.txt', newText: 'b' })], {
      maxLines: 4,
    });
    expect(lines.slice(3).map((line) => line.text)).toEqual([
      '+line 0',
      '+line 1',
      '+line 2',
      '+line 3',
      '--- /w/b.txt',
      '+++ /w/b.txt',
      '... 7 more diff lines not shown',
    ]);
    expect(lines.at(-1)?.kind).toBe('omitted');
  });
});

import { buildDiffBlocks, type DiffDisplayBlock } from '@kimi-tools/core';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { diffBlockLines, renderDiff } from './diff-render.js';

const plain = { colors: pc.createColors(false), showPath: (p: string) => p.replace('/w/', '') };

describe('renderDiff', () => {
  it('renders a block of the core diff as a unified diff hunk', () => {
    const oldText = 'a\nb\nc\nd\ne\nf\ng\n';
    const newText = 'a\nb\nc\nD\ne\nf\ng\nh\n';
    const blocks = buildDiffBlocks('/w/file.txt', oldText, newText);
    expect(renderDiff(blocks, plain)).toEqual([
      '--- file.txt',
      '+++ file.txt',
      '@@ -1,7 +1,8 @@',
      ' a',
      ' b',
      ' c',
      '-d',
      '+D',
      ' e',
      ' f',
      ' g',
      '+h',
    ]);
  });

  it('writes an empty side as the line before it, like diff -u', () => {
    const blocks = buildDiffBlocks('/w/new.txt', '', 'x\ny\n');
    expect(renderDiff(blocks, plain)).toEqual(['--- new.txt', '+++ new.txt', '@@ -0,0 +1,2 @@', '+x', '+y']);
  });

  it('shows a summary block as line counts', () => {
    const summary: DiffDisplayBlock = {
      type: 'diff',
      path: '/w/big.log',
      oldText: '(20000 lines)',
      newText: '(20000 lines, modified)',
      oldStart: 1,
      newStart: 1,
      isSummary: true,
    };
    expect(renderDiff([summary], plain)).toEqual([
      '--- big.log',
      '+++ big.log',
      '@@ summary @@',
      '  (20000 lines) → (20000 lines, modified): too large to show line by line',
    ]);
  });

  it('cuts long diffs and says how many lines are hidden', () => {
    const newText = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    const lines = renderDiff(buildDiffBlocks('/w/f', '', newText), { ...plain, maxLines: 4 });
    expect(lines.slice(3)).toEqual([
      '+line 0',
      '+line 1',
      '+line 2',
      '+line 3',
      '… 6 more diff lines not shown',
    ]);
  });

  it('colours removed lines red and added lines green when colour is on', () => {
    const colors = pc.createColors(true);
    const lines = renderDiff(buildDiffBlocks('/w/f', 'old\n', 'new\n'), { colors, showPath: (p) => p });
    expect(lines).toContain('\u001b[31m-old\u001b[39m');
    expect(lines).toContain('\u001b[32m+new\u001b[39m');
  });
});

describe('diffBlockLines', () => {
  it('matches unchanged lines inside a hunk instead of removing and re-adding them', () => {
    const block: DiffDisplayBlock = {
      type: 'diff',
      path: 'f',
      oldText: 'keep\nx\nmiddle\ny\nkeep',
      newText: 'keep\nX\nmiddle\nY\nkeep',
      oldStart: 1,
      newStart: 1,
      isSummary: false,
    };
    expect(diffBlockLines(block)).toEqual([
      { kind: 'context', text: 'keep' },
      { kind: 'removed', text: 'x' },
      { kind: 'added', text: 'X' },
      { kind: 'context', text: 'middle' },
      { kind: 'removed', text: 'y' },
      { kind: 'added', text: 'Y' },
      { kind: 'context', text: 'keep' },
    ]);
  });
});

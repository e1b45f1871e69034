import type { DiffDisplayBlock } from '@kimi-tools/core';
import { buildDiffBlocks } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { formatDiffText } from './diff-text.js';

function block(init: Partial<DiffDisplayBlock>): DiffDisplayBlock {
  return {
    type: 'diff',
    path: '/w/a.txt',
    oldText: '',
    newText: '',
    oldStart: 1,
    newStart: 1,
    isSummary: false,
    ...init,
  };
}

describe('formatDiffText', () => {
  it('realigns a block with two changes around kept lines', () => {
    const oldText = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n') + '\n';
    const newText = ['a', 'B', 'c', 'd', 'e', 'f', 'G', 'h', 'i'].join('\n') + '\n';
    expect(formatDiffText(buildDiffBlocks('/w/a.txt', oldText, newText))).toBe(
      [
        '--- /w/a.txt',
        '+++ /w/a.txt',
        '@@ -1,8 +1,9 @@',
        ' a',
        '-b',
        '+B',
        ' c',
        ' d',
        ' e',
        ' f',
        '-g',
        '+G',
        ' h',
        '+i',
      ].join('\n'),
    );
  });

  it('shows a new file as added lines and a summary block as counts', () => {
    expect(formatDiffText([block({ newText: 'x\ny' })])).toBe(
      ['--- /w/a.txt', '+++ /w/a.txt', '@@ -1,0 +1,2 @@', '+x', '+y'].join('\n'),
    );
    expect(
      formatDiffText([block({ oldText: '(12000 lines)', newText: '(12001 lines)', isSummary: true })]),
    ).toBe(
      [
        '--- /w/a.txt',
        '+++ /w/a.txt',
        '@@ (12000 lines) -> (12001 lines) (too large to show line by line) @@',
      ].join('\n'),
    );
  });

  it('cuts long diffs and says how much is left out', () => {
    const newText = Array.from({ length: 10 }, (_, index) => `line ${index}`).join('\n');
    expect(formatDiffText([block({ newText })], 5)).toBe(
      [
        '--- /w/a.txt',
        '+++ /w/a.txt',
        '@@ -1,0 +1,10 @@',
        '+line 0',
        '+line 1',
        '... (8 more diff lines not shown)',
      ].join('\n'),
    );
  });
});

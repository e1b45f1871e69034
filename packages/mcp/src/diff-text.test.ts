import { formatUnifiedDiff } from '@kimi-tools/core';
import { buildDiffBlocks } from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { formatDiffText, MAX_DIFF_TEXT_LINES } from './diff-text.js';

describe('formatDiffText', () => {
  it("is core's unified diff", () => {
    const blocks = buildDiffBlocks('/w/a.txt', 'a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(formatDiffText(blocks)).toBe(
      ['--- /w/a.txt', '+++ /w/a.txt', '@@ -1,3 +1,4 @@', ' a', '-b', '+B', ' c', '+d'].join('\n'),
    );
  });

  it('shows paths in their shown form and control characters as pictures: nothing a user reads is a raw escape', () => {
    const blocks = buildDiffBlocks(
      '/w/a\u001b[2K\rWrite file harmless.txt',
      'a\n',
      'a\u001b[1Ahidden\r \u009b2K \u202eevil\u2066 \u0085x\u2028y\n',
    );
    expect(formatDiffText(blocks)).toBe(
      [
        '--- "/w/a\\u001b[2K\\rWrite file harmless.txt"',
        '+++ "/w/a\\u001b[2K\\rWrite file harmless.txt"',
        '@@ -1,1 +1,1 @@',
        '-a',
        '+a\u241b[1Ahidden\u240d \\u009b2K \\u202eevil\\u2066 \\u0085x\\u2028y',
      ].join('\n'),
    );
  });

  it(`shows at most ${MAX_DIFF_TEXT_LINES} diff lines and counts the rest`, () => {
    const newText = Array.from({ length: MAX_DIFF_TEXT_LINES + 5 }, (_, index) => `line ${index}`).join('\n');
    const blocks = buildDiffBlocks('/w/a.txt', '', newText);
    const text = formatDiffText(blocks);
    expect(text).toBe(formatUnifiedDiff(blocks, { maxLines: MAX_DIFF_TEXT_LINES }));
    expect(text.split('\n').at(-1)).toBe('... 5 more diff lines not shown');
  });
});

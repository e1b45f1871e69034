import { formatUnifiedDiff } from '@kimi-tools/core';
import { buildDiffBlocks } from '@kimi-tools/core/toolkit';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderDiff } from './diff-render.js';
import { pathShower } from './workspace.js';

const showPath = (p: string) => p.replace('/w/', '');

describe('renderDiff', () => {
  it("prints core's unified diff, 80 diff lines at most", () => {
    const newText = Array.from({ length: 90 }, (_, i) => `line ${i}`).join('\n');
    const blocks = buildDiffBlocks('/w/file.txt', 'a\n', newText);
    const lines = renderDiff(blocks, { colors: pc.createColors(false), showPath });
    expect(lines.join('\n')).toBe(formatUnifiedDiff(blocks, { showPath, maxLines: 80 }));
    expect(lines.slice(0, 3)).toEqual(['--- file.txt', '+++ file.txt', '@@ -1,1 +1,90 @@']);
    expect(lines.at(-1)).toBe('... 11 more diff lines not shown');
  });

  it('colours removed lines red and added lines green when colour is on', () => {
    const colors = pc.createColors(true);
    const lines = renderDiff(buildDiffBlocks('/w/f', 'old\n', 'new\n'), { colors, showPath });
    expect(lines).toContain('\u001b[31m-old\u001b[39m');
    expect(lines).toContain('\u001b[32m+new\u001b[39m');
  });

  it('shows no raw terminal escape: paths in their shown form, control characters of a line as pictures', () => {
    const blocks = buildDiffBlocks('/w/a\u001b[2K\rX.txt', 'a\n', 'a\u001b[1Ahidden \u202eevil\n');
    const lines = renderDiff(blocks, { colors: pc.createColors(false), showPath: pathShower('/w') });
    expect(lines).toEqual([
      '--- "a\\u001b[2K\\rX.txt"',
      '+++ "a\\u001b[2K\\rX.txt"',
      '@@ -1,1 +1,1 @@',
      '-a',
      '+a\u241b[1Ahidden \\u202eevil',
    ]);
  });
});

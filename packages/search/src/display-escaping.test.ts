import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Glob } from './glob/glob.js';
import { Grep } from './grep/grep.js';

// A file name holding a newline or a terminal escape must stay one visible entry, never rewrite the output
// (issue: a newline split one entry into two lines). Linux allows both in names; Windows allows neither.
describe.runIf(process.platform !== 'win32')('control characters in file names', () => {
  const names = { newline: 'a\nb.txt', escape: 'c\u001b[2K\rd.txt' };

  it('Glob shows each name escaped on one line', async ({ workspace }) => {
    await workspace.writeAll({ [names.newline]: 'zebra\n', [names.escape]: 'zebra\n', 'plain.txt': '' });
    const result = await new Glob(workspace.runtime()).call({ pattern: '*.txt' });
    expect(result.output).toBe(['a\\nb.txt', 'c\\u001b[2K\\rd.txt', 'plain.txt'].join('\n'));
  });

  it('Grep shows each name escaped in every mode', async ({ workspace }) => {
    await workspace.writeAll({ [names.newline]: 'zebra\n', [names.escape]: 'zebra\n' });
    const tool = new Grep(workspace.runtime());
    const files = await tool.call({ pattern: 'zebra' });
    expect(String(files.output).split('\n').sort()).toEqual(['a\\nb.txt', 'c\\u001b[2K\\rd.txt']);
    const content = await tool.call({ pattern: 'zebra', output_mode: 'content' });
    expect(content.output).toBe('a\\nb.txt:1:zebra\nc\\u001b[2K\\rd.txt:1:zebra');
    const counts = await tool.call({ pattern: 'zebra', output_mode: 'count_matches' });
    expect(counts.output).toBe('a\\nb.txt:1\nc\\u001b[2K\\rd.txt:1');
  });
});

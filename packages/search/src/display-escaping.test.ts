import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Glob } from './glob/glob.js';
import { Grep } from './grep/grep.js';

// A file name holding a newline or a terminal escape must stay one visible entry, never rewrite the output
// (issue: a newline split one entry into two lines), and must not read like another name (issue 29: `a<TAB>b.py`
// and a file named `a\tb.py` were both listed as `a\tb.py`). Linux allows both in names; Windows allows neither.
describe.runIf(process.platform !== 'win32')('control characters in file names', () => {
  const names = { newline: 'a\nb.txt', escape: 'c\u001b[2K\rd.txt', tab: 't\tb.txt', lookAlike: 't\\tb.txt' };

  it('Glob shows each such name quoted on one line, and a name that only looks escaped as it is', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      [names.newline]: 'zebra\n',
      [names.escape]: 'zebra\n',
      [names.tab]: '',
      [names.lookAlike]: '',
      'plain.txt': '',
    });
    const result = await new Glob(workspace.runtime()).call({ pattern: '*.txt' });
    expect(result.output).toBe(
      ['"a\\nb.txt"', '"c\\u001b[2K\\rd.txt"', 'plain.txt', '"t\\tb.txt"', 't\\tb.txt'].join('\n'),
    );
  });

  it('Grep shows each name quoted in every mode', async ({ workspace }) => {
    await workspace.writeAll({ [names.newline]: 'zebra\n', [names.escape]: 'zebra\n' });
    const tool = new Grep(workspace.runtime());
    const files = await tool.call({ pattern: 'zebra' });
    expect(String(files.output).split('\n').sort()).toEqual(['"a\\nb.txt"', '"c\\u001b[2K\\rd.txt"']);
    const content = await tool.call({ pattern: 'zebra', output_mode: 'content' });
    expect(content.output).toBe('"a\\nb.txt":1:zebra\n"c\\u001b[2K\\rd.txt":1:zebra');
    const counts = await tool.call({ pattern: 'zebra', output_mode: 'count_matches' });
    expect(counts.output).toBe('"a\\nb.txt":1\n"c\\u001b[2K\\rd.txt":1');
  });

  it('Glob and Grep take a quoted name back as their directory or path', async ({ workspace }) => {
    await workspace.writeAll({ 'd\tir/x.txt': 'zebra\n', 'd\\tir/y.txt': 'zebra\n' });
    const glob = await new Glob(workspace.runtime()).call({ pattern: '*', directory: '"d\\tir"' });
    expect(glob.output).toBe('x.txt');
    const grep = await new Grep(workspace.runtime()).call({ pattern: 'zebra', path: '"d\\tir/x.txt"' });
    expect(grep.output).toBe('x.txt');
  });
});

// docs/grep.md#output-formats: a content or count line splits at the first separator after a plain path. `a:12:b`
// was shown `a:12:b:3:zebra`, read as line 12 of `a`; `log-2024-01.txt` in a context line as line 2024 of `log`.
describe.runIf(process.platform !== 'win32')("a path holding its line's separator", () => {
  it('Grep quotes a path holding `:` in content and count lines, not in files mode', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'a:12:b': 'x\nzebra\n', 'plain-1.txt': 'zebra\n' });
    const tool = new Grep(workspace.runtime());
    const content = await tool.call({ pattern: 'zebra', output_mode: 'content' });
    expect(content.output).toBe('"a:12:b":2:zebra\nplain-1.txt:1:zebra');
    const bare = await tool.call({ pattern: 'zebra', output_mode: 'content', '-n': false });
    expect(bare.output).toBe('"a:12:b":zebra\nplain-1.txt:zebra');
    const counts = await tool.call({ pattern: 'zebra', output_mode: 'count_matches' });
    expect(counts.output).toBe('"a:12:b":1\nplain-1.txt:1');
    const files = await tool.call({ pattern: 'zebra' });
    expect(String(files.output).split('\n').sort()).toEqual(['a:12:b', 'plain-1.txt']);
  });

  it('with context lines, quotes a path that reads as a line number, on every line of its file', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      'log-2024-01.txt': 'x\nzebra\n',
      'v-1': 'zebra\n',
      'my-file.ts': 'x\nzebra\n',
    });
    const tool = new Grep(workspace.runtime());
    const numbered = await tool.call({ pattern: 'zebra', output_mode: 'content', '-B': 1 });
    expect(numbered.output).toBe(
      [
        '"log-2024-01.txt"-1-x',
        '"log-2024-01.txt":2:zebra',
        '--',
        'my-file.ts-1-x',
        'my-file.ts:2:zebra',
        '--',
        '"v-1":1:zebra',
      ].join('\n'),
    );
    const bare = await tool.call({ pattern: 'zebra', output_mode: 'content', '-B': 1, '-n': false });
    expect(bare.output).toBe(
      [
        '"log-2024-01.txt"-x',
        '"log-2024-01.txt":zebra',
        '--',
        '"my-file.ts"-x',
        '"my-file.ts":zebra',
        '--',
        '"v-1":zebra',
      ].join('\n'),
    );
  });
});

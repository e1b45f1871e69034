import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

const it = test.extend('tool', ({ runtime }) => new WriteFile(runtime));

const rows = (count: number, change?: (n: number) => string | undefined): string =>
  Array.from({ length: count }, (_, index) => change?.(index + 1) ?? `row ${index + 1}`).join('\n') + '\n';

describe('output', () => {
  it('is empty for a new file', async ({ tool }) => {
    const result = await tool.call({ path: 'new.txt', content: 'a\n' });
    expect(result.output).toBe('');
  });

  it('shows the changed places of an overwrite with context', async ({ workspace, runtime, tool }) => {
    await workspace.write('o.txt', rows(30), { readBy: runtime });
    const result = await tool.call({
      path: 'o.txt',
      content: rows(30, (n) => (n === 15 ? 'row fifteen' : undefined)),
    });
    expect(result.message).toBe('File successfully overwritten. Current size: 206 bytes.');
    expect(result.output).toBe(
      ['row 12', 'row 13', 'row 14', 'row fifteen', 'row 16', 'row 17', 'row 18']
        .map((line, index) => `${String(12 + index).padStart(6)}\t${line}\n`)
        .join(''),
    );
  });

  it('gives only counts when most of the file changed', async ({ workspace, runtime, tool }) => {
    await workspace.write('m.txt', rows(4), { readBy: runtime });
    const result = await tool.call({ path: 'm.txt', content: 'one\ntwo\nthree\n' });
    expect(result.output).toBe(
      'Most of the file changed: 4 line(s) removed, 3 line(s) added, 3 line(s) now.\n',
    );
  });

  it('shows the last lines after an append', async ({ workspace, tool }) => {
    await workspace.write('log.txt', rows(10));
    const result = await tool.call({ path: 'log.txt', content: 'row 11\nrow 12\n', mode: 'append' });
    expect(result.output).toBe(
      ['row 8', 'row 9', 'row 10', 'row 11', 'row 12']
        .map((line, index) => `${String(8 + index).padStart(6)}\t${line}\n`)
        .join(''),
    );
  });

  it('keeps the tail of a large append and says which lines to read for the rest', async ({
    workspace,
    tool,
  }) => {
    await workspace.write('log.txt', 'head\n');
    const content = rows(600);
    const result = await tool.call({ path: 'log.txt', content, mode: 'append' });
    expect((result.output as string).endsWith('   601\trow 600\n')).toBe(true);
    const first = Number((result.output as string).split('\t')[0]);
    expect(result.message).toBe(
      `File successfully appended to. Current size: ${5 + Buffer.byteLength(content)} bytes. The output is cut at 8192 bytes: read lines 1-${first - 1} for the rest.`,
    );
  });
});

import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

const numbered = (from: number, lines: string[]): string =>
  lines.map((line, index) => `${String(from + index).padStart(6)}\t${line}\n`).join('');

describe('output: the changed lines as the file now is', () => {
  it('shows the edited lines with three lines of context, numbered as ReadFile numbers them', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const lines = Array.from({ length: 20 }, (_, index) => `row ${index + 1}`);
    await workspace.write('rows.txt', `${lines.join('\n')}\n`, { readBy: runtime });
    const result = await tool.call({
      path: 'rows.txt',
      edit: { old: 'row 10\n', new: 'row ten\nrow ten b\n' },
    });
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(result.output).toBe(
      numbered(7, ['row 7', 'row 8', 'row 9', 'row ten', 'row ten b', 'row 11', 'row 12', 'row 13']),
    );
  });

  it('merges close edits into one piece and parts distant ones with `...`', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const lines = Array.from({ length: 40 }, (_, index) => `v${index + 1} = ${index + 1}`);
    await workspace.write('v.py', `${lines.join('\n')}\n`, { readBy: runtime });
    const result = await tool.call({
      path: 'v.py',
      edit: [
        { old: 'v2 = 2', new: 'v2 = 20' },
        { old: 'v5 = 5', new: 'v5 = 50' },
        { old: 'v30 = 30', new: 'v30 = 300' },
      ],
    });
    const shown = (result.output as string).split('\n').filter(Boolean);
    expect(shown[0]).toBe('     1\tv1 = 1');
    expect(shown[shown.indexOf('...') - 1]).toBe('     8\tv8 = 8');
    expect(shown.slice(shown.indexOf('...') + 1)).toEqual(
      numbered(27, ['v27 = 27', 'v28 = 28', 'v29 = 29', 'v30 = 300', 'v31 = 31', 'v32 = 32', 'v33 = 33'])
        .split('\n')
        .filter(Boolean),
    );
  });

  it('shows the lines around a deleted line', async ({ workspace, runtime, tool }) => {
    await workspace.write('d.txt', 'a\nb\nc\nd\n', { readBy: runtime });
    const result = await tool.call({ path: 'd.txt', edit: { old: 'b', new: '' } });
    expect(await workspace.read(workspace.at('d.txt'))).toBe('a\nc\nd\n');
    expect(result.output).toBe(numbered(1, ['a', 'c', 'd']));
  });

  it('cuts the output at 8 KiB and says which lines to read for the rest', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('big.txt', 'start\nend\n', { readBy: runtime });
    const added = Array.from({ length: 400 }, (_, index) => `added line ${index + 1} ${'-'.repeat(20)}`).join(
      '\n',
    );
    const result = await tool.call({ path: 'big.txt', edit: { old: 'start', new: `start\n${added}` } });
    expect(Buffer.byteLength(result.output as string)).toBeLessThanOrEqual(8192);
    const last = Number((result.output as string).trimEnd().split('\n').at(-1)?.split('\t')[0]);
    expect(result.message).toBe(
      `File successfully edited. Applied 1 edit(s) with 1 total replacement(s). The output is cut at 8192 bytes: read lines ${last + 1}-402 for the rest.`,
    );
  });
});

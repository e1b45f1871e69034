import { ReadFile } from '@kimi-tools/read';
import { it, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';
import type { GrepParams } from './grep-params.js';

// ReadFile ends a line at `\n`, `\r\n` or a lone `\r` (docs/read-file.md); ripgrep ends one only at `\n`. Grep's line
// numbers and lines follow ReadFile's, so the model's next ReadFile or edit lands on the line Grep showed.
const FILES = {
  // Old Mac line breaks, the last line ended too.
  'mac.txt': 'alpha\rbeta\rgamma needle\rdelta\r',
  // `\r\n` and lone `\r` mixed, a match on each side of a lone `\r`.
  'mixed.txt': 'one\r\ntwo\rthree\nneedle x\r\nfour\rneedle y\rfive\n',
};

/** Grep with ripgrep where the backend runs it, and the portable search: both must answer alike. */
const ENGINES = [
  ['ripgrep (where it runs)', {}],
  ['the portable search', { rgPath: '/nonexistent/rg' }],
] as const;

async function grepBoth(workspace: TempWorkspace, call: Partial<GrepParams> & { pattern: string }) {
  const answers = [];
  for (const [, options] of ENGINES) {
    const { output, message } = await new Grep(workspace.runtime(), options).call(call);
    answers.push({ output, message });
  }
  expect(answers[1], 'the portable search').toEqual(answers[0]);
  return answers[0] as { output: unknown; message: string };
}

describe('lines ended by a lone \\r', () => {
  it('numbers and shows matching lines as ReadFile does', async ({ workspace }) => {
    await workspace.writeAll(FILES);
    const answer = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content' });
    expect(answer.output).toBe(
      ['mac.txt:3:gamma needle', 'mixed.txt:4:needle x', 'mixed.txt:6:needle y'].join('\n'),
    );
    const plain = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content', '-n': false });
    expect(plain.output).toBe(
      ['mac.txt:gamma needle', 'mixed.txt:needle x', 'mixed.txt:needle y'].join('\n'),
    );
  });

  it('takes context lines from the neighbouring lines', async ({ workspace }) => {
    await workspace.writeAll(FILES);
    const around = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content', '-C': 1 });
    expect(around.output).toBe(
      [
        'mac.txt-2-beta',
        'mac.txt:3:gamma needle',
        'mac.txt-4-delta',
        '--',
        'mixed.txt-3-three',
        'mixed.txt:4:needle x',
        'mixed.txt-5-four',
        'mixed.txt:6:needle y',
        'mixed.txt-7-five',
      ].join('\n'),
    );
    const before = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content', '-B': 2 });
    expect(before.output).toBe(
      [
        'mac.txt-1-alpha',
        'mac.txt-2-beta',
        'mac.txt:3:gamma needle',
        '--',
        'mixed.txt-2-two',
        'mixed.txt-3-three',
        'mixed.txt:4:needle x',
        'mixed.txt-5-four',
        'mixed.txt:6:needle y',
      ].join('\n'),
    );
    const after = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content', '-A': 1 });
    expect(after.output).toBe(
      [
        'mac.txt:3:gamma needle',
        'mac.txt-4-delta',
        '--',
        'mixed.txt:4:needle x',
        'mixed.txt-5-four',
        'mixed.txt:6:needle y',
        'mixed.txt-7-five',
      ].join('\n'),
    );
  });

  it('numbers a line after lone \\r that no output shows', async ({ workspace }) => {
    await workspace.writeAll({
      'far.txt': 'a\rb\r\nc\nd\re\nneedle\n',
      'crlf.txt': 'a\r\nb\r\nneedle\r\n',
      'bom.txt': '\uFEFFa\rb\nneedle\n',
      'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('é\rb\r\nneedle\r\n', 'utf16le')]),
    });
    const answer = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content' });
    expect(answer.output).toBe(
      ['bom.txt:3:needle', 'crlf.txt:3:needle', 'far.txt:6:needle', 'utf16.txt:3:needle'].join('\n'),
    );
  });

  it('leads to the line ReadFile shows at that number', async ({ workspace }) => {
    await workspace.writeAll(FILES);
    const answer = await grepBoth(workspace, { pattern: 'needle|^t', output_mode: 'content' });
    const lines = String(answer.output).split('\n');
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      const [, path, number, text] = /^(.+?):(\d+):(.*)$/.exec(line) ?? [];
      const read = await new ReadFile(workspace.runtime()).call({
        path: path as string,
        line_offset: Number(number),
        n_lines: 1,
      });
      expect(read.output, line).toBe(`${String(number).padStart(6)}\t${text}\n`);
    }
  });

  it('counts and lists the same matches', async ({ workspace }) => {
    await workspace.writeAll(FILES);
    const files = await grepBoth(workspace, { pattern: 'needle' });
    expect(String(files.output).split('\n').sort()).toEqual(['mac.txt', 'mixed.txt']);
    const counts = await grepBoth(workspace, { pattern: 'needle', output_mode: 'count_matches' });
    expect(counts).toEqual({
      output: 'mac.txt:1\nmixed.txt:2',
      message: 'Found 3 total occurrences across 2 files.',
    });
    // A match never spans a lone `\r`, and `^` matches after one: one occurrence a line, as ReadFile counts lines.
    const starts = await grepBoth(workspace, { pattern: '^', output_mode: 'count_matches' });
    expect(starts.output).toBe('mac.txt:4\nmixed.txt:7');
    const across = await grepBoth(workspace, { pattern: 'a\\sb|o\\Wt', output_mode: 'count_matches' });
    expect(across.message).toBe('No matches found.');
  });
});

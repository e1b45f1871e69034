import { ReadFile } from '@kimi-tools/read';
import { it, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';
import type { GrepParams } from './grep-params.js';

// docs/grep.md#output-formats: a line's text is shown as ReadFile shows it, each control character but tab as its
// picture. ripgrep's lines reached the model with their raw ESC and BEL: a file holding `ESC [2J` cleared the terminal
// of a host printing the result, and could fake the text around it.
const FILES = {
  'term.txt': 'plain needle\nclear "\u001b[2J" bell "\u0007"\r needle\nff \u000c del \u007f tab\tneedle\n',
  // ripgrep prints only the start of a line past 2,000 bytes: the window near the match is read back from the file.
  'long.txt': `${'x'.repeat(3000)}\u001b[2J needle\u0007\n`,
  // Printed whole, but too long with its prefix: the window is cut from the printed text.
  'mid.txt': `${'x'.repeat(1990)}\u0007 needle\n`,
  // A lone `\r` past what ripgrep prints of a long line: the line is shown as one, its `\r` among its characters.
  'cr.txt': `${'x'.repeat(2100)}\ry\u001b[2J needle\u0007\n`,
};

/** Grep with ripgrep where the backend runs it, and the portable search: both must answer alike. */
async function grepBoth(workspace: TempWorkspace, call: Partial<GrepParams> & { pattern: string }) {
  const answers = [];
  for (const options of [{}, { rgPath: '/nonexistent/rg' }]) {
    const { output, message } = await new Grep(workspace.runtime(), options).call(call);
    answers.push({ output, message });
  }
  expect(answers[1], 'the portable search').toEqual(answers[0]);
  return answers[0] as { output: unknown; message: string };
}

describe("control characters in a file's lines", () => {
  it('shows them as their pictures in matching and context lines, tab as it is', async ({ workspace }) => {
    await workspace.writeAll({ 'term.txt': FILES['term.txt'] });
    const answer = await grepBoth(workspace, { pattern: 'plain', output_mode: 'content', '-A': 3 });
    expect(answer.output).toBe(
      [
        'term.txt:1:plain needle',
        'term.txt-2-clear "\u241b[2J" bell "\u2407"',
        'term.txt-3- needle',
        'term.txt-4-ff \u240c del \u2421 tab\tneedle',
      ].join('\n'),
    );
    const plain = await grepBoth(workspace, { pattern: 'clear', output_mode: 'content', '-n': false });
    expect(plain.output).toBe('term.txt:clear "\u241b[2J" bell "\u2407"');
  });

  it('shows them as their pictures in a long line shown from near its match, the counts unchanged', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'long.txt': FILES['long.txt'], 'mid.txt': FILES['mid.txt'] });
    const answer = await grepBoth(workspace, { pattern: 'needle', output_mode: 'content' });
    expect(answer.output).toBe(
      [
        `long.txt:1:[...2505 of 3012 characters skipped]${'x'.repeat(495)}\u241b[2J needle\u2407`,
        `mid.txt:1:[...1492 of 1998 characters skipped]${'x'.repeat(498)}\u2407 needle`,
      ].join('\n'),
    );
  });

  // ripgrep's line is not mended there (docs/grep.md#output-formats), so its `\r` is among the characters shown; the
  // portable search ends the line at it, as ReadFile does.
  it('shows a lone \\r left inside a long line as its picture', async ({ workspace }) => {
    await workspace.writeAll({ 'cr.txt': FILES['cr.txt'] });
    const ended = 'cr.txt:2:y\u241b[2J needle\u2407';
    const call = { pattern: 'needle', output_mode: 'content' } as const;
    const rg = await new Grep(workspace.runtime()).call(call);
    expect(rg.output).toBe(
      rg.extras?.search === 'ripgrep'
        ? `cr.txt:1:[...1607 of 2114 characters skipped]${'x'.repeat(493)}\u240dy\u241b[2J needle\u2407`
        : ended,
    );
    const portable = await new Grep(workspace.runtime(), { rgPath: '/nonexistent/rg' }).call(call);
    expect(portable.output).toBe(ended);
  });

  it('shows a line as ReadFile shows it at that number', async ({ workspace }) => {
    await workspace.writeAll({ 'term.txt': FILES['term.txt'] });
    const answer = await grepBoth(workspace, { pattern: 'needle|clear', output_mode: 'content' });
    const lines = String(answer.output).split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      const [, number, text] = /^term\.txt:(\d+):(.*)$/.exec(line) ?? [];
      const read = await new ReadFile(workspace.runtime()).call({
        path: 'term.txt',
        line_offset: Number(number),
        n_lines: 1,
      });
      expect(read.output, line).toBe(`${String(number).padStart(6)}\t${text}\n`);
    }
  });

  it('finds them by a pattern naming the real character, not its picture', async ({ workspace }) => {
    await workspace.writeAll({ 'term.txt': FILES['term.txt'] });
    const real = await grepBoth(workspace, { pattern: '\\x1b\\[2J', output_mode: 'content' });
    expect(real.output).toBe('term.txt:2:clear "\u241b[2J" bell "\u2407"');
    const pictured = await grepBoth(workspace, { pattern: '\u241b\\[2J', output_mode: 'content' });
    expect(pictured.message).toBe('No matches found.');
  });
});

import { localFileSystem } from '@kimi-tools/core/fs';
import { writeFile } from 'node:fs/promises';
import { it, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';
import { windowInFile } from './long-line-window.js';

const CUT = 'Output is truncated to fit in the message.';

/** A line as the output shows it: cut at 2,000 characters, the marker included, when longer. */
function capped(line: string): string {
  return line.length <= 2000 ? line : `${line.slice(0, 1986)}[...truncated]`;
}

function grep(workspace: TempWorkspace) {
  return new Grep(workspace.runtime());
}

// Issue 29.3: one match on a 70 MB minified line answered only `Search stopped after 64 MB of ripgrep output`.
describe('a match on a very long line', () => {
  it('shows a 70 MB line from near its match, saying how long it is, in every mode', async ({
    workspace,
  }) => {
    const half = 35 * 1024 * 1024;
    await writeFile(workspace.at('huge.min.js'), `${'x'.repeat(half)}zebra${'y'.repeat(half)}\n`);
    const content = await grep(workspace).call({ pattern: 'zebra', output_mode: 'content' });
    expect(content).toMatchObject({
      isError: false,
      output: capped(
        `huge.min.js:1:[...${half - 500} of ${2 * half + 5} characters skipped]${'x'.repeat(500)}zebra${'y'.repeat(2000)}`,
      ),
      message: CUT,
      extras: { total: 1 },
    });
    const withoutNumbers = await grep(workspace).call({
      pattern: 'zebra',
      output_mode: 'content',
      '-n': false,
    });
    expect(withoutNumbers.output).toBe(
      capped(
        `huge.min.js:[...${half - 500} of ${2 * half + 5} characters skipped]${'x'.repeat(500)}zebra${'y'.repeat(2000)}`,
      ),
    );
    const files = await grep(workspace).call({ pattern: 'zebra' });
    expect(files).toMatchObject({ output: 'huge.min.js', message: '' });
    const counts = await grep(workspace).call({ pattern: 'zebra', output_mode: 'count_matches' });
    expect(counts).toMatchObject({
      output: 'huge.min.js:1',
      message: 'Found 1 total occurrences across 1 files.',
    });
  });

  it('keeps context lines as they were, the long ones cut at their start', async ({ workspace }) => {
    await workspace.write(
      'ctx.js',
      `before\n${'x'.repeat(3000)}zebra${'y'.repeat(3000)}\n${'c'.repeat(5000)}\nafter zebra\n`,
    );
    const result = await grep(workspace).call({ pattern: 'zebra', output_mode: 'content', '-C': 1 });
    expect(String(result.output).split('\n')).toEqual([
      'ctx.js-1-before',
      capped(`ctx.js:2:[...2500 of 6005 characters skipped]${'x'.repeat(500)}zebra${'y'.repeat(2000)}`),
      capped(`ctx.js-3-${'c'.repeat(5000)}`),
      'ctx.js:4:after zebra',
    ]);
    expect(result.message).toBe(CUT);
  });

  it('shows a line from its start when its match is in its first 500 characters', async ({ workspace }) => {
    await workspace.write('near.js', `${'x'.repeat(499)}zebra${'y'.repeat(5000)}\n`);
    const result = await grep(workspace).call({ pattern: 'zebra', output_mode: 'content' });
    expect(result.output).toBe(capped(`near.js:1:${'x'.repeat(499)}zebra${'y'.repeat(5000)}`));
  });

  it('shows a line ripgrep printed whole from near its match when the path makes it too long', async ({
    workspace,
  }) => {
    const name = `${'n'.repeat(120)}.js`;
    await workspace.write(name, `${'x'.repeat(1900)}zebra\n`);
    const result = await grep(workspace).call({ pattern: 'zebra', output_mode: 'content' });
    expect(result.output).toBe(`${name}:1:[...1400 of 1905 characters skipped]${'x'.repeat(500)}zebra`);
    expect(result.message).toBe(CUT);
  });

  it('counts characters, not bytes, after a BOM and in text that is not ASCII', async ({ workspace }) => {
    await writeFile(workspace.at('bom.txt'), `\uFEFF${'é'.repeat(3000)}😀zebra${'ü'.repeat(3000)}\r\n`);
    const result = await grep(workspace).call({ pattern: 'zebra', output_mode: 'content' });
    // 3,000 é and an emoji (two UTF-16 units, as Grep counts characters) before the match, less 500 of lead.
    expect(result.output).toBe(
      capped(`bom.txt:1:[...2502 of 6007 characters skipped]${'é'.repeat(498)}😀zebra${'ü'.repeat(3000)}`),
    );
  });

  it('in multiline mode, shows the first line of a match from near it and the lines it continues on from their start', async ({
    workspace,
  }) => {
    await workspace.write(
      'multi.js',
      `${'a'.repeat(3000)}START${'b'.repeat(3000)}\n${'c'.repeat(3000)}END\n`,
    );
    const result = await grep(workspace).call({
      pattern: 'START.*?END',
      output_mode: 'content',
      multiline: true,
    });
    expect(String(result.output).split('\n')).toEqual([
      capped(`multi.js:1:[...2500 of 6005 characters skipped]${'a'.repeat(500)}START${'b'.repeat(3000)}`),
      capped(`multi.js:2:${'c'.repeat(3000)}END`),
    ]);
  });

  it('never spends ripgrep’s output limit on long lines: 40 lines of 2 MB each all reach the answer', async ({
    workspace,
  }) => {
    const line = `${'x'.repeat(1024 * 1024)}zebra${'y'.repeat(1024 * 1024)}\n`;
    await writeFile(workspace.at('many.js'), line.repeat(40));
    const result = await grep(workspace).call({ pattern: 'zebra', output_mode: 'content', offset: 39 });
    expect(result.extras).toEqual({ total: 40, search: 'ripgrep' });
    expect(result.message).toBe(CUT);
    expect(result.output).toBe(
      capped(
        `many.js:40:[...1048076 of 2097157 characters skipped]${'x'.repeat(500)}zebra${'y'.repeat(2000)}`,
      ),
    );
  });
});

describe('windowInFile', () => {
  it('gives nothing for a UTF-16 file, a line that is no longer there, or a missing file', async ({
    workspace,
  }) => {
    const utf16 = workspace.at('u16.txt');
    await writeFile(utf16, Buffer.from(`\uFEFF${'x'.repeat(3000)}zebra\n`, 'utf16le'));
    expect(await windowInFile(localFileSystem, utf16, 0, 3001, undefined)).toBeUndefined();
    const short = await workspace.write('short.txt', 'zebra\n');
    expect(await windowInFile(localFileSystem, short, 0, 3001, undefined)).toBeUndefined();
    expect(await windowInFile(localFileSystem, workspace.at('gone.txt'), 0, 1, undefined)).toBeUndefined();
  });

  it('stops with the call when its signal is aborted', async ({ workspace }) => {
    const file = workspace.at('long.txt');
    await writeFile(file, `${'x'.repeat(3000)}zebra\n`);
    const controller = new AbortController();
    controller.abort();
    await expect(windowInFile(localFileSystem, file, 0, 3001, controller.signal)).rejects.toThrow(
      'The search was aborted.',
    );
  });
});

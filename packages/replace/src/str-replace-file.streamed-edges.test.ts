import type { ToolRuntime } from '@kimi-tools/core';
import { test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { bothPaths } from './__fixtures__/both-paths.js';
import { WINDOW_REACH_BYTES } from './window/window-ranges.js';

const it = test;

// Longer than a window reaches: a window next to this line is cut, or starts at the line after it. The streamed path's
// snippet shows less of such a line than the in-memory one, so the comparisons below leave the snippets out.
const long = 'x'.repeat(WINDOW_REACH_BYTES + 4464);

/** The in-memory outcome of the edit, once the streamed path is seen to give the same, snippets aside. */
async function agreedOutcome(
  workspace: TempWorkspace,
  runtime: ToolRuntime,
  name: string,
  bytes: Uint8Array | string,
  edit: object,
) {
  const { streamed, memory } = await bothPaths(workspace, runtime, name, bytes, edit, { snippets: false });
  expect(streamed).toEqual(memory);
  return memory;
}

describe('a window cut at the match never splits a \\r\\n', () => {
  it('a match starting at the \\n of a \\r\\n deletes the whole line break', async ({
    workspace,
    runtime,
  }) => {
    const memory = await agreedOutcome(workspace, runtime, 'crlf.txt', `head\r\n${long}\r\nfoo\r\nend\r\n`, {
      old: '\nfoo',
      new: '',
    });
    expect(memory.bytes.toString('latin1')).toBe(`head\r\n${long}\r\nend\r\n`);
  });

  it('in UTF-16 too', async ({ workspace, runtime }) => {
    const text = `head\r\n${long}\r\nfoo\r\nend\r\n`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const memory = await agreedOutcome(workspace, runtime, 'utf16.txt', bytes, {
      old: '\nfoo',
      new: '',
    });
    expect(memory.bytes.subarray(2).toString('utf16le')).toBe(`head\r\n${long}\r\nend\r\n`);
  });

  it('a match ending in the \\r of a \\r\\n takes its \\n along', async ({ workspace, runtime }) => {
    const memory = await agreedOutcome(
      workspace,
      runtime,
      'cr-end.txt',
      `head\r\nfoo\r\n${long}\r\nend\r\n`,
      {
        old: 'foo\r',
        new: 'bar\r',
      },
    );
    expect(memory.isError).toBe(false);
  });
});

describe('deleting the last line of a file without a final line break', () => {
  it('after a line longer than a window reaches: the line break before it goes too', async ({
    workspace,
    runtime,
  }) => {
    const memory = await agreedOutcome(workspace, runtime, 'last.txt', `head\n${long}\nlast`, {
      old: 'last',
      new: '',
    });
    expect(memory.bytes.toString('latin1')).toBe(`head\n${long}`);
  });

  it('a \\r\\n before it goes whole', async ({ workspace, runtime }) => {
    const memory = await agreedOutcome(workspace, runtime, 'last-crlf.txt', `head\r\n${long}\r\nlast`, {
      old: 'last',
      new: '',
    });
    expect(memory.bytes.toString('latin1')).toBe(`head\r\n${long}`);
  });

  it('a deletion inside the line keeps the line break, as in memory', async ({ workspace, runtime }) => {
    const memory = await agreedOutcome(workspace, runtime, 'inside.txt', `head\n${long}\nqq`, {
      old: 'q',
      new: '',
      replace_all: true,
    });
    expect(memory.bytes.toString('latin1')).toBe(`head\n${long}\n`);
  });
});

describe('replace_all with a line break in a CRLF file', () => {
  it('matches exactly only and names the file line where the line breaks alone differ, as in memory', async ({
    workspace,
    runtime,
  }) => {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index}`);
    lines[30] = 'alpha';
    lines[31] = 'beta';
    const memory = await agreedOutcome(workspace, runtime, 'all.txt', lines.join('\r\n') + '\r\n', {
      old: 'alpha\nbeta',
      new: 'x',
      replace_all: true,
    });
    expect(memory.message).toBe(
      "Edit 1: the old string was not found in the file. No changes were made. With line breaks read as \\n, it is at line 31: replace_all replaces exact text only, and this file's line breaks are \\r\\n. Write the line breaks of old and new as \\r\\n, or replace each place with an edit of its own.",
    );
  });
});

// Found by the streamed property on seeds 622546977 and 793401006: two matches nine unchanged lines apart got two
// windows, so the snippet put a gap line where the in-memory one, whose places that close read as one, shows lines.
describe('two matches a few unchanged lines apart', () => {
  const alphas = (count: number) => Array.from({ length: count }, () => 'alpha');

  it('deleted whole lines nine lines apart: one snippet piece, as in memory', async ({
    workspace,
    runtime,
  }) => {
    const text = ['x', ...alphas(9), 'x'].join('\n');
    const { streamed, memory } = await bothPaths(workspace, runtime, 'nine.txt', text, {
      old: 'x',
      new: '',
      replace_all: true,
    });
    expect(streamed).toEqual(memory);
    expect(memory.output).not.toContain('...');
    expect(memory.bytes.toString('latin1')).toBe(alphas(9).join('\n'));
  });

  it('the same with a line that is no match at the start', async ({ workspace, runtime }) => {
    const text = ['beta gamma', ...alphas(9), 'beta gamma', 'alpha'].join('\n');
    const { streamed, memory } = await bothPaths(workspace, runtime, 'nine-first.txt', text, {
      old: 'beta gamma',
      new: '',
      replace_all: true,
    });
    expect(streamed).toEqual(memory);
    expect(memory.output).not.toContain('...');
  });

  it('replaced inside their lines nine lines apart', async ({ workspace, runtime }) => {
    const text = ['x', ...alphas(9), 'x', ''].join('\n');
    const { streamed, memory } = await bothPaths(workspace, runtime, 'inside.txt', text, {
      old: 'x',
      new: 'y',
      replace_all: true,
    });
    expect(streamed).toEqual(memory);
    expect(memory.output).not.toContain('...');
  });

  it('ten lines apart: two pieces and a gap line, as in memory', async ({ workspace, runtime }) => {
    const text = ['x', ...alphas(10), 'x', ''].join('\n');
    const { streamed, memory } = await bothPaths(workspace, runtime, 'ten.txt', text, {
      old: 'x',
      new: 'y',
      replace_all: true,
    });
    expect(streamed).toEqual(memory);
    expect(memory.output).toContain('\n...\n');
  });
});

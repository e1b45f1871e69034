import type { ToolRuntime } from '@kimi-tools/core';
import { withFinalLineBreak } from '@kimi-tools/core/toolkit';
import { NotebookEdit } from '@kimi-tools/notebook';
import { ApplyPatch } from '@kimi-tools/patch';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { test, type TempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterAll, describe, expect } from 'vitest';
import { report } from '../support/report.js';

// docs/writing.md#what-the-model-sees-of-a-change: the lines a write tool shows of a file are ReadFile's numbered lines,
// byte for byte. Every piece of every answer below is compared with a real ReadFile call on the same lines of the same
// file, so the two formats can never drift apart: lines in the middle, the last line with and without its line break,
// CRLF and lone-CR files, a file read in windows, a long line cut at a window's end, a notebook cell, an empty file.

/** The line endings a file is written with, and whether its last line has one. */
const ENDINGS = {
  lf: { eol: '\n', final: true },
  'lf, no final break': { eol: '\n', final: false },
  crlf: { eol: '\r\n', final: true },
  'crlf, no final break': { eol: '\r\n', final: false },
  'lone cr, no final break': { eol: '\r', final: false },
} as const;

const LINE_COUNT = 20;

/** Line `n` of {@link twentyLines}: each is found once, with or without its line break. */
const lineText = (n: number) => `line ${String(n).padStart(2, '0')}`;

/** A file of 20 lines, in an ending of {@link ENDINGS}. */
function twentyLines({ eol, final }: { eol: string; final: boolean }): string {
  const lines = Array.from({ length: LINE_COUNT }, (_, index) => lineText(index + 1));
  return lines.join(eol) + (final ? eol : '');
}

/** Lines edited: the first, one in the middle, the last, and two far apart (two pieces parted by `...`). */
const PLACES: Record<string, number[]> = {
  first: [1],
  middle: [10],
  last: [LINE_COUNT],
  'two apart': [2, LINE_COUNT - 1],
};

/** Pieces compared with ReadFile in this file's run, for the figures line. */
let compared = 0;

/**
 * The pieces of numbered lines a tool showed: split at the `...` lines between them, each kept with its own line
 * breaks, so a piece before a gap ends with one (as a ReadFile page before the file's end does).
 */
function pieces(shown: string): string[] {
  const found: string[] = [];
  let piece = '';
  for (const line of shown.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    if (line === '...\n') {
      found.push(piece);
      piece = '';
    } else piece += line;
  }
  return [...found, piece].filter((text) => text !== '');
}

/** What ReadFile shows of `count` lines of `path` from line `first`. */
async function readLines(runtime: ToolRuntime, path: string, first: number, count: number): Promise<string> {
  const read = await new ReadFile(runtime).call({ path, line_offset: first, n_lines: count });
  expect(read.isError).toBe(false);
  compared += 1;
  return String(read.output);
}

/** What ReadFile shows of `path` for the lines `piece` numbers: from its first number, as many lines. */
async function readOf(runtime: ToolRuntime, path: string, piece: string): Promise<string> {
  const numbers = [...piece.matchAll(/^ *(\d+)\t/gm)].map((match) => Number(match[1]));
  expect(numbers.length).toBeGreaterThan(0);
  // Consecutive lines: one page of ReadFile's shows them all.
  expect(numbers).toEqual(numbers.map((_, index) => numbers[0]! + index));
  return readLines(runtime, path, numbers[0]!, numbers.length);
}

/** Every piece `shown` holds is exactly what ReadFile shows of those lines of `path`. */
async function expectAsRead(runtime: ToolRuntime, path: string, shown: string): Promise<void> {
  const found = pieces(shown);
  expect(found.length).toBeGreaterThan(0);
  for (const piece of found) {
    expect(piece).toBe(await readOf(runtime, path, piece));
  }
}

/** The text of the first fenced block of a message, closing fence excluded. */
function fenced(message: string): string {
  const start = message.indexOf('```\n') + 4;
  return message.slice(start, message.indexOf('```', start));
}

/** Writes `text` to `name` and records it read, as ReadFile would; returns `name`. */
async function writtenAndRead(workspace: TempWorkspace, runtime: ToolRuntime, name: string, text: string) {
  await workspace.write(name, text, { readBy: runtime });
  return name;
}

afterAll(() => report('shown lines', { compared }));

describe('the lines a write tool shows are what ReadFile shows of them', () => {
  for (const [ending, style] of Object.entries(ENDINGS)) {
    for (const [place, lines] of Object.entries(PLACES)) {
      test(`StrReplaceFile, read whole and in windows: ${ending}, ${place}`, async ({
        workspace,
        runtime,
      }) => {
        for (const [how, tool] of [
          ['whole', new StrReplaceFile(runtime)],
          ['windows', new StrReplaceFile(runtime, { streamAboveBytes: 1 })],
        ] as const) {
          const path = await writtenAndRead(workspace, runtime, `${how}.txt`, twentyLines(style));
          const edits = lines.map((line) => ({ old: lineText(line), new: lineText(line).toUpperCase() }));
          const result = await tool.call({ path, edit: edits });
          expect(result.isError, result.message).toBe(false);
          // One piece a place: two places apart are parted by a `...` line.
          expect(pieces(String(result.output))).toHaveLength(lines.length);
          await expectAsRead(runtime, path, String(result.output));
          // The same edits again: a replay, answered with the lines as they stand.
          const replay = await tool.call({ path, edit: edits });
          expect(replay.extras).toMatchObject({ alreadyApplied: true });
          await expectAsRead(runtime, path, String(replay.output));
        }
      });
    }

    test(`WriteFile, an overwrite and appends: ${ending}`, async ({ workspace, runtime }) => {
      const tool = new WriteFile(runtime);
      const path = await writtenAndRead(workspace, runtime, 'w.txt', twentyLines(style));
      const changed = twentyLines(style).replace(lineText(LINE_COUNT), 'LAST');
      const overwrite = await tool.call({ path, content: changed });
      expect(overwrite.isError, overwrite.message).toBe(false);
      await expectAsRead(runtime, path, String(overwrite.output));
      for (const more of [`${style.eol}appended`, `appended${style.eol}`]) {
        const append = await tool.call({ path, content: more, mode: 'append' });
        expect(append.isError, append.message).toBe(false);
        await expectAsRead(runtime, path, String(append.output));
      }
    });
  }

  test('ApplyPatch: each file as ReadFile shows it, ended by a line break before the next one', async ({
    workspace,
    runtime,
  }) => {
    await writtenAndRead(workspace, runtime, 'a.txt', twentyLines(ENDINGS['lf, no final break']));
    await writtenAndRead(workspace, runtime, 'b.txt', twentyLines(ENDINGS['crlf, no final break']));
    const patch = ['a.txt', 'b.txt'].flatMap((name) => [
      `*** Update File: ${name}`,
      '@@',
      `-${lineText(LINE_COUNT)}`,
      `+LAST`,
    ]);
    const result = await new ApplyPatch(runtime).call({
      patch: ['*** Begin Patch', ...patch, '*** End Patch'].join('\n'),
    });
    expect(result.isError, result.message).toBe(false);
    const [a, b] = await Promise.all(['a.txt', 'b.txt'].map((name) => readLines(runtime, name, 17, 4)));
    expect(result.output).toBe(`a.txt:\n${withFinalLineBreak(a!)}\nb.txt:\n${b}`);
  });

  test('the lines of a refusal, in a fence: an edit of replaced text, an edit of lines changed since the read', async ({
    workspace,
    runtime,
  }) => {
    const tool = new StrReplaceFile(runtime);
    const path = await writtenAndRead(
      workspace,
      runtime,
      'r.txt',
      twentyLines(ENDINGS['lf, no final break']),
    );
    await tool.call({ path, edit: { old: lineText(LINE_COUNT), new: 'LAST' } });
    const replaced = await tool.call({ path, edit: { old: lineText(LINE_COUNT), new: 'other' } });
    expect(replaced.brief).toBe('No match');
    expect(fenced(replaced.message)).toBe(
      withFinalLineBreak(await readOf(runtime, path, fenced(replaced.message))),
    );

    const stale = await writtenAndRead(
      workspace,
      runtime,
      's.txt',
      twentyLines(ENDINGS['lf, no final break']),
    );
    await workspace.write(
      stale,
      twentyLines(ENDINGS['lf, no final break']).replace(lineText(LINE_COUNT), 'twenty'),
    );
    const overlap = await tool.call({ path: stale, edit: { old: 'twenty', new: 'x' } });
    expect(overlap.brief).toBe('File modified');
    expect(fenced(overlap.message)).toBe(
      withFinalLineBreak(await readOf(runtime, stale, fenced(overlap.message))),
    );
  });

  test('a file emptied by an edit shows nothing, as ReadFile does', async ({ workspace, runtime }) => {
    const path = await writtenAndRead(workspace, runtime, 'e.txt', 'one\ntwo');
    const result = await new StrReplaceFile(runtime).call({ path, edit: { old: 'one\ntwo', new: '' } });
    expect(result.isError, result.message).toBe(false);
    const read = await new ReadFile(runtime).call({ path });
    compared += 1;
    expect([result.output, read.output]).toEqual(['', '']);
  });

  test('a long line at the end of a window, as ReadFile cuts it', async ({ workspace, runtime }) => {
    // The window around line 1 reaches 64 KiB into line 2 and is cut there: the line goes on, and has its break.
    const path = await writtenAndRead(workspace, runtime, 'long.txt', `a\n${'b'.repeat(100_000)}\nc`);
    const result = await new StrReplaceFile(runtime, { streamAboveBytes: 1 }).call({
      path,
      edit: { old: 'a\n', new: 'A\n' },
    });
    expect(result.isError, result.message).toBe(false);
    expect(String(result.output)).toMatch(/^ {5}1\tA\n {5}2\tb+\.\.\.\n$/);
    await expectAsRead(runtime, path, String(result.output));
  });

  test('a notebook cell, the last one and one before it', async ({ workspace, runtime }) => {
    const notebook = JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { id: 'a', cell_type: 'markdown', metadata: {}, source: ['# title'] },
        { id: 'b', cell_type: 'code', metadata: {}, source: ['x = 1'], outputs: [], execution_count: null },
      ],
    });
    const path = await writtenAndRead(workspace, runtime, 'n.ipynb', notebook);
    const tool = new NotebookEdit(runtime);
    for (const [cell, source] of [
      ['b', 'x = 2\nprint(x)'],
      ['a', '# Title'],
    ]) {
      const result = await tool.call({ notebook_path: path, cell_id: cell, new_source: source });
      expect(result.isError, result.message).toBe(false);
      await expectAsRead(runtime, path, String(result.output));
    }
  });
});

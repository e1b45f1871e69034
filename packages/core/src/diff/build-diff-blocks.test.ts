import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildDiffBlocks,
  buildDiffView,
  DIFF_DISPLAY_MAX_BYTES,
  DIFF_MAX_LINES,
} from './build-diff-blocks.js';
import { countLines } from './diff-lines.js';
import { changedLines } from './changed-lines.js';
import { LineDiff } from './line-diff.js';

/** `count` lines `prefix1`..`prefixN`, each followed by '\n'. */
function numberedLines(prefix: string, count: number, from = 1): string {
  let text = '';
  for (let n = from; n < from + count; n++) text += `${prefix}${n}\n`;
  return text;
}

function block(oldText: string, newText: string, oldStart: number, newStart: number) {
  return { type: 'diff', path: 'f.txt', oldText, newText, oldStart, newStart, isSummary: false };
}

function summary(oldText: string, newText: string) {
  return { type: 'diff', path: 'f.txt', oldText, newText, oldStart: 1, newStart: 1, isSummary: true };
}

describe('countLines', () => {
  it('counts a final line without a newline, and does not count a final newline as a line', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('\n\n')).toBe(2);
  });
});

describe('buildDiffBlocks', () => {
  it('gives no blocks for equal texts', () => {
    expect(buildDiffBlocks('f.txt', '', '')).toEqual([]);
    expect(buildDiffBlocks('f.txt', 'a\nb\n', 'a\nb\n')).toEqual([]);
  });

  it('shows one change with 3 lines of context on each side', () => {
    const oldText = numberedLines('line', 20);
    const newText = oldText.replace('line10\n', 'changed10\n');
    expect(buildDiffBlocks('f.txt', oldText, newText)).toEqual([
      block(
        'line7\nline8\nline9\nline10\nline11\nline12\nline13',
        'line7\nline8\nline9\nchanged10\nline11\nline12\nline13',
        7,
        7,
      ),
    ]);
  });

  it('gives separate blocks for distant changes, with starts shifted by earlier insertions', () => {
    const oldText = numberedLines('line', 30);
    const newText = oldText.replace('line3\n', 'line3\nnew-a\nnew-b\n').replace('line25\n', 'changed25\n');
    expect(buildDiffBlocks('f.txt', oldText, newText)).toEqual([
      block(
        'line1\nline2\nline3\nline4\nline5\nline6',
        'line1\nline2\nline3\nnew-a\nnew-b\nline4\nline5\nline6',
        1,
        1,
      ),
      block(
        'line22\nline23\nline24\nline25\nline26\nline27\nline28',
        'line22\nline23\nline24\nchanged25\nline26\nline27\nline28',
        22,
        24,
      ),
    ]);
  });

  it('merges changes at most 6 unchanged lines apart into one block, splits at 7', () => {
    const oldText = numberedLines('line', 30);
    const close = oldText.replace('line10\n', 'x10\n').replace('line17\n', 'x17\n'); // 6 lines between
    const closeBlocks = buildDiffBlocks('f.txt', oldText, close);
    expect(closeBlocks).toHaveLength(1);
    expect(closeBlocks[0]).toMatchObject({ oldStart: 7, newStart: 7 });
    expect(closeBlocks[0]!.oldText.split('\n')).toEqual(numberedLines('line', 14, 7).trimEnd().split('\n'));
    expect(closeBlocks[0]!.newText).toBe(
      'line7\nline8\nline9\nx10\nline11\nline12\nline13\nline14\nline15\nline16\nx17\nline18\nline19\nline20',
    );

    const apart = oldText.replace('line10\n', 'x10\n').replace('line18\n', 'x18\n'); // 7 lines between
    const apartBlocks = buildDiffBlocks('f.txt', oldText, apart);
    expect(apartBlocks.map((b) => [b.oldStart, b.newStart, b.oldText.split('\n').length])).toEqual([
      [7, 7, 7],
      [15, 15, 7],
    ]);
  });

  it('honours a custom context size', () => {
    const oldText = numberedLines('line', 10);
    const newText = oldText.replace('line5\n', 'five\n');
    expect(buildDiffBlocks('f.txt', oldText, newText, { context: 1 })).toEqual([
      block('line4\nline5\nline6', 'line4\nfive\nline6', 4, 4),
    ]);
    expect(buildDiffBlocks('f.txt', oldText, newText, { context: 0 })).toEqual([
      block('line5', 'five', 5, 5),
    ]);
  });

  it('shows an insertion at the start', () => {
    const oldText = numberedLines('line', 10);
    expect(buildDiffBlocks('f.txt', oldText, `head\n${oldText}`)).toEqual([
      block('line1\nline2\nline3', 'head\nline1\nline2\nline3', 1, 1),
    ]);
  });

  it('shows an insertion at the end', () => {
    const oldText = numberedLines('line', 10);
    expect(buildDiffBlocks('f.txt', oldText, `${oldText}tail1\ntail2\n`)).toEqual([
      block('line8\nline9\nline10', 'line8\nline9\nline10\ntail1\ntail2', 8, 8),
    ]);
  });

  it('starts both sides at line 1 for content written into an empty file', () => {
    expect(buildDiffBlocks('f.txt', '', 'a\nb\n')).toEqual([block('', 'a\nb', 1, 1)]);
  });

  it('shows the deletion of everything, the empty new side starting at line 1', () => {
    expect(buildDiffBlocks('f.txt', 'a\nb\nc\n', '')).toEqual([block('a\nb\nc', '', 1, 1)]);
  });

  it('starts an empty side at the line that follows the gap', () => {
    const oldText = numberedLines('line', 10);
    const newText = oldText.replace('line5\n', '');
    expect(buildDiffBlocks('f.txt', oldText, newText, { context: 0 })).toEqual([block('line5', '', 5, 5)]);
    expect(buildDiffBlocks('f.txt', newText, oldText, { context: 0 })).toEqual([block('', 'line5', 5, 5)]);
  });

  it('shows a change of the final newline alone as the last line removed and added again', () => {
    expect(buildDiffBlocks('f.txt', 'a\nb\nc', 'a\nb\nc\n')).toEqual([block('a\nb\nc', 'a\nb\nc', 1, 1)]);
    expect(buildDiffBlocks('f.txt', 'a\nb\nc\n', 'a\nb\nc', { context: 0 })).toEqual([block('c', 'c', 3, 3)]);
    expect(buildDiffBlocks('f.txt', 'a', 'a\n')).toEqual([block('a', 'a', 1, 1)]);
  });

  it('treats lines that only differ in the final newline of unchanged regions as equal', () => {
    const oldText = numberedLines('line', 10).trimEnd();
    const newText = oldText.replace('line2', 'two');
    expect(buildDiffBlocks('f.txt', oldText, newText)).toEqual([
      block('line1\nline2\nline3\nline4\nline5', 'line1\ntwo\nline3\nline4\nline5', 1, 1),
    ]);
  });

  it('returns texts without carriage returns for normalised input, and keeps a lone \\r as line content', () => {
    const blocks = buildDiffBlocks('f.txt', 'a\nb\nc\n', 'a\nB\nc\n');
    expect(blocks).toEqual([block('a\nb\nc', 'a\nB\nc', 1, 1)]);
    expect(blocks.some((b) => b.oldText.includes('\r') || b.newText.includes('\r'))).toBe(false);
    // '\r' is not a line break here: the caller normalises line endings first (docs/encodings.md).
    expect(buildDiffBlocks('f.txt', 'a\rb\n', 'a\rB\n')).toEqual([block('a\rb', 'a\rB', 1, 1)]);
  });

  it('keeps the path as given', () => {
    const [only] = buildDiffBlocks('/abs/dir/x y.ts', 'a\n', 'b\n');
    expect(only?.path).toBe('/abs/dir/x y.ts');
  });

  it('summarises a change when a side has more than 10,000 lines', () => {
    const big = numberedLines('line', DIFF_MAX_LINES + 1);
    expect(buildDiffBlocks('f.txt', big, big.replace('line5\n', 'five\n'))).toEqual([
      summary('(10001 lines)', '(10001 lines, modified)'),
    ]);
    expect(buildDiffBlocks('f.txt', 'a\n', big)).toEqual([summary('(1 line)', '(10001 lines)')]);
    expect(buildDiffBlocks('f.txt', big, '')).toEqual([summary('(10001 lines)', '(0 lines)')]);
  });

  it('still shows hunks at exactly 10,000 lines', () => {
    const text = numberedLines('line', DIFF_MAX_LINES);
    const blocks = buildDiffBlocks('f.txt', text, text.replace('line5000\n', 'five thousand\n'));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ oldStart: 4997, newStart: 4997, isSummary: false });
  });

  it('summarises two completely different 100,000-line texts', () => {
    const oldText = numberedLines('old', 100_000);
    const newText = numberedLines('new', 100_000);
    expect(buildDiffBlocks('f.txt', oldText, newText)).toEqual([
      summary('(100000 lines)', '(100000 lines, modified)'),
    ]);
  });

  it('summarises a diff that cannot be found within a tiny budget', () => {
    // The same 4,000 lines in a scrambled order: every line has a match, so the search has real work to do.
    const lines = Array.from({ length: 4000 }, (_, n) => `line${n}`);
    const oldText = `${lines.join('\n')}\n`;
    const scrambled = `${lines.map((_, n) => lines[(n * 1999) % 4000]).join('\n')}\n`;
    expect(buildDiffBlocks('f.txt', oldText, scrambled, { budgetMs: 0 })).toEqual([
      summary('(4000 lines)', '(4000 lines, modified)'),
    ]);
    const shorter = `${lines
      .slice(0, 3000)
      .map((_, n) => lines[(n * 1999) % 4000])
      .join('\n')}\n`;
    expect(buildDiffBlocks('f.txt', oldText, shorter, { budgetMs: 1 })).toEqual([
      summary('(4000 lines)', '(3000 lines)'),
    ]);
  });

  it('shows two entirely different texts below the line limit as one block, all removed then all added', () => {
    const oldText = numberedLines('old', 5000);
    const newText = numberedLines('new', 4000);
    expect(buildDiffBlocks('f.txt', oldText, newText)).toEqual([
      block(oldText.slice(0, -1), newText.slice(0, -1), 1, 1),
    ]);
  });

  it('shows a local edit of a 10,000-line text, common lines being set aside before the search', () => {
    const oldText = numberedLines('line', DIFF_MAX_LINES);
    const newText = oldText.replace('line9000\n', 'nine thousand\n');
    const blocks = buildDiffBlocks('f.txt', oldText, newText);
    expect(blocks).toEqual([
      block(
        'line8997\nline8998\nline8999\nline9000\nline9001\nline9002\nline9003',
        'line8997\nline8998\nline8999\nnine thousand\nline9001\nline9002\nline9003',
        8997,
        8997,
      ),
    ]);
  });

  it('finds an interleaved diff of two different texts within the default budget', () => {
    const oldText = 'a\nb\nc\nd\ne\nf\ng\n';
    const newText = 'a\nc\nd\nX\ne\ng\nh\n';
    expect(buildDiffBlocks('f.txt', oldText, newText, { context: 0 })).toEqual([
      block('b', '', 2, 2),
      block('', 'X', 5, 4),
      block('f', '', 6, 6),
      block('', 'h', 8, 7),
    ]);
  });

  it('gives blocks that turn the old lines into the new ones, for many random pairs of texts', () => {
    // Up to 39 one-letter lines, so equal lines abound; the new lines are either unrelated or the old ones with about
    // one line in five replaced by `x`.
    const randomLines = fc.array(fc.constantFrom(...'abcdefg'), { maxLength: 39 });
    const edited = (lines: string[]) =>
      fc
        .array(fc.integer({ min: 0, max: 4 }), { minLength: lines.length, maxLength: lines.length })
        .map((dice) => lines.map((line, index) => (dice[index] === 0 ? 'x' : line)));
    const pairs = randomLines.chain((oldLines) =>
      fc.tuple(fc.constant(oldLines), fc.oneof(randomLines, edited(oldLines))),
    );
    const linesOf = (text: string): string[] => (text === '' ? [] : text.split('\n'));

    fc.assert(
      fc.property(pairs, fc.integer({ min: 0, max: 3 }), ([oldLines, newLines], context) => {
        const oldText = oldLines.map((line) => `${line}\n`).join('');
        const newText = newLines.map((line) => `${line}\n`).join('');
        const blocks = buildDiffBlocks('f.txt', oldText, newText, { context, budgetMs: 60_000 });

        const rebuilt = oldLines.slice();
        for (const b of blocks.slice().reverse()) {
          const oldPart = linesOf(b.oldText);
          expect(oldLines.slice(b.oldStart - 1, b.oldStart - 1 + oldPart.length)).toEqual(oldPart);
          expect(newLines.slice(b.newStart - 1, b.newStart - 1 + linesOf(b.newText).length)).toEqual(
            linesOf(b.newText),
          );
          rebuilt.splice(b.oldStart - 1, oldPart.length, ...linesOf(b.newText));
        }
        expect(rebuilt).toEqual(newLines);
        expect(blocks.length === 0).toBe(oldText === newText);
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildDiffView', () => {
  it('gives one hunk per block, with its numbers and its lines marked, for many random pairs of texts', () => {
    const randomLines = fc.array(fc.constantFrom(...'abcdefg'), { maxLength: 39 });
    const edited = (lines: string[]) =>
      fc
        .array(fc.integer({ min: 0, max: 4 }), { minLength: lines.length, maxLength: lines.length })
        .map((dice) => lines.map((line, index) => (dice[index] === 0 ? 'x' : line)));
    const pairs = randomLines.chain((oldLines) =>
      fc.tuple(fc.constant(oldLines), fc.oneof(randomLines, edited(oldLines))),
    );
    fc.assert(
      fc.property(pairs, fc.integer({ min: 0, max: 3 }), ([oldLines, newLines], context) => {
        const oldText = oldLines.map((line) => `${line}\n`).join('');
        const newText = newLines.map((line) => `${line}\n`).join('');
        const { blocks, hunks } = buildDiffView('f.txt', oldText, newText, { context, budgetMs: 60_000 });
        expect(hunks).toHaveLength(blocks.length);
        let oldEnd = 0;
        let newEnd = 0;
        hunks.forEach((hunk, index) => {
          const block = blocks[index]!;
          expect([hunk.oldStart, hunk.newStart]).toEqual([block.oldStart, block.newStart]);
          const side = (sign: string) =>
            hunk.lines.filter((line) => line[0] === ' ' || line[0] === sign).map((line) => line.slice(1));
          expect(side('-')).toEqual(oldLines.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines));
          expect(side('+')).toEqual(newLines.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines));
          expect(side('-').join('\n')).toBe(block.oldText);
          expect(side('+').join('\n')).toBe(block.newText);
          // Hunks never share a line, so each can be applied alone.
          expect(hunk.oldStart - 1).toBeGreaterThanOrEqual(oldEnd);
          expect(hunk.newStart - 1).toBeGreaterThanOrEqual(newEnd);
          oldEnd = hunk.oldStart - 1 + hunk.oldLines;
          newEnd = hunk.newStart - 1 + hunk.newLines;
        });
      }),
      { numRuns: 300 },
    );
  });

  it('gives a summary block one hunk over both whole texts, without lines', () => {
    const oldText = numberedLines('line', DIFF_MAX_LINES + 1);
    const view = buildDiffView('f.txt', oldText, `${oldText}more\n`);
    expect(view.blocks).toEqual([summary(`(${DIFF_MAX_LINES + 1} lines)`, `(${DIFF_MAX_LINES + 2} lines)`)]);
    expect(view.hunks).toEqual([
      { oldStart: 1, oldLines: DIFF_MAX_LINES + 1, newStart: 1, newLines: DIFF_MAX_LINES + 2, lines: [] },
    ]);
  });
});

describe('buildDiffBlocks timing', () => {
  it('reports no search for equal texts and for texts over the line limit', () => {
    const timing = { readMs: -1, searchMs: -1, searchTimedOut: true };
    buildDiffBlocks('f.txt', 'a\n', 'a\n', { timing });
    expect(timing).toMatchObject({ searchMs: 0, searchTimedOut: false });
    expect(timing.readMs).toBeGreaterThanOrEqual(0);
    buildDiffBlocks('f.txt', 'x\n'.repeat(DIFF_MAX_LINES + 1), 'y\n', { timing });
    expect(timing).toMatchObject({ searchMs: 0, searchTimedOut: false });
  });

  it('reports a search that ran out of budget', () => {
    const lines = Array.from({ length: 4000 }, (_, n) => `line${n}`);
    const timing = { readMs: 0, searchMs: 0, searchTimedOut: false };
    const scrambled = `${lines.map((_, n) => lines[(n * 1999) % 4000]).join('\n')}\n`;
    buildDiffBlocks('f.txt', `${lines.join('\n')}\n`, scrambled, { budgetMs: 1, timing });
    expect(timing.searchTimedOut).toBe(true);
    expect(timing.searchMs).toBeGreaterThan(0);
  });

  it("takes the caller's line diff of the same texts, searched once, and ignores one of other texts", () => {
    const lines = new LineDiff('a\nb\nc\n', 'b\na\nc\n', 200);
    expect(changedLines(lines)).toEqual([
      { oldFrom: 1, oldCount: 1, newFrom: 1, newCount: 0 },
      { oldFrom: 3, oldCount: 0, newFrom: 2, newCount: 1 },
    ]);
    const timing = { readMs: 0, searchMs: -1, searchTimedOut: true };
    const blocks = buildDiffBlocks('f.txt', 'a\nb\nc\n', 'b\na\nc\n', { timing, lines });
    // The search was the caller's: none in this call.
    expect(timing).toMatchObject({ searchMs: 0, searchTimedOut: false });
    expect(blocks).toEqual(buildDiffBlocks('f.txt', 'a\nb\nc\n', 'b\na\nc\n'));
    expect(buildDiffBlocks('f.txt', 'x\n', 'y\n', { lines })).toEqual(buildDiffBlocks('f.txt', 'x\n', 'y\n'));
  });

  it('reads no clock without timing where nothing is searched (its first read loads a Node module)', () => {
    const own = Object.getOwnPropertyDescriptor(globalThis, 'performance')!;
    let reads = 0;
    Object.defineProperty(globalThis, 'performance', {
      configurable: true,
      get: () => {
        reads++;
        return own.get ? own.get.call(globalThis) : own.value;
      },
    });
    try {
      const blocks = buildDiffBlocks('f.txt', 'x\n'.repeat(DIFF_MAX_LINES + 1), 'y\n');
      expect(blocks[0]?.isSummary).toBe(true);
      expect(buildDiffBlocks('f.txt', 'a\nb\n', 'c\nd\n')[0]?.isSummary).toBe(false);
    } finally {
      Object.defineProperty(globalThis, 'performance', own);
    }
    expect(reads).toBe(0);
  });

  it('reports a search that finished', () => {
    const timing = { readMs: 0, searchMs: 0, searchTimedOut: true };
    const blocks = buildDiffBlocks('f.txt', 'a\nb\nc\n', 'b\na\nc\n', { timing });
    expect(blocks[0]?.isSummary).toBe(false);
    expect(timing.searchTimedOut).toBe(false);
  });
});

describe('buildDiffBlocks: bounded displays (docs/diff-blocks.md#long-lines-and-the-byte-budget)', () => {
  const bytesOf = (blocks: { oldText: string; newText: string }[]) =>
    blocks.reduce((sum, b) => sum + Buffer.byteLength(b.oldText) + Buffer.byteLength(b.newText), 0);

  it('cuts a long changed line around the change, with a marker for each cut', () => {
    const head = 'h'.repeat(10_000);
    const tail = 't'.repeat(20_000);
    const blocks = buildDiffBlocks('f.txt', `${head}abcdef${tail}\n`, `${head}ABCDEF${tail}\n`);
    expect(blocks).toEqual([
      block(
        `[...9800 characters cut...]${'h'.repeat(200)}abcdef${'t'.repeat(200)}[...19800 characters cut...]`,
        `[...9800 characters cut...]${'h'.repeat(200)}ABCDEF${'t'.repeat(200)}[...19800 characters cut...]`,
        1,
        1,
      ),
    ]);
  });

  it('keeps a 6-character edit in a 20 MB one-line file small', () => {
    const half = 'x'.repeat(10 * 1024 * 1024);
    const blocks = buildDiffBlocks('f.txt', `${half}before${half}`, `${half}after!${half}`);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.isSummary).toBe(false);
    expect(blocks[0]?.newText).toContain('after!');
    expect(bytesOf(blocks)).toBeLessThan(2_000);
  });

  it('counts one character cut in the singular', () => {
    const long = 'c'.repeat(1_001);
    expect(buildDiffBlocks('f.txt', `${long}\nold\n`, `${long}\nnew\n`)[0]?.oldText).toBe(
      `${'c'.repeat(1_000)}[...1 character cut...]\nold`,
    );
  });

  it('shows a long unchanged context line by its start only', () => {
    const long = 'c'.repeat(5_000);
    const blocks = buildDiffBlocks('f.txt', `${long}\nold\n`, `${long}\nnew\n`);
    expect(blocks).toEqual([
      block(
        `${'c'.repeat(1_000)}[...4000 characters cut...]\nold`,
        `${'c'.repeat(1_000)}[...4000 characters cut...]\nnew`,
        1,
        1,
      ),
    ]);
  });

  it('cuts a huge replaced stretch to its two ends', () => {
    const blocks = buildDiffBlocks(
      'f.txt',
      `keep ${'a'.repeat(50_000)} keep`,
      `keep ${'b'.repeat(50_000)} keep`,
    );
    const [only] = blocks;
    expect(only?.oldText).toBe(`keep ${'a'.repeat(495)}[...49010 characters cut...]${'a'.repeat(495)} keep`);
    expect(bytesOf(blocks)).toBeLessThan(2_500);
  });

  it('never cuts a character in two', () => {
    const emoji = '😀'.repeat(3_000);
    const [only] = buildDiffBlocks('f.txt', `${emoji}a${emoji}`, `${emoji}b${emoji}`);
    for (const text of [only!.oldText, only!.newText])
      expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('shows the summary block when the blocks would exceed their byte budget', () => {
    const oldText = numberedLines(`${'o'.repeat(150)}-`, 2_000);
    const newText = numberedLines(`${'n'.repeat(150)}-`, 2_000);
    expect(buildDiffBlocks('f.txt', oldText, newText)).toEqual([
      summary('(2000 lines)', '(2000 lines, modified)'),
    ]);
  });

  it('shows the summary block when all blocks together would exceed the display budget', () => {
    // Six blocks of 100 changed 1,000-character lines (200 KB each, under the block budget), 1.2 MB together.
    const group = (fill: string) => Array.from({ length: 100 }, () => fill.repeat(1_000)).join('\n');
    const gap = Array.from({ length: 10 }, (_, n) => `gap${n}`).join('\n');
    const oldText = Array.from({ length: 6 }, () => group('o')).join(`\n${gap}\n`);
    const newText = Array.from({ length: 6 }, () => group('n')).join(`\n${gap}\n`);
    const blocks = buildDiffBlocks('f.txt', oldText, newText);
    expect(blocks).toEqual([summary('(650 lines)', '(650 lines, modified)')]);
  });

  it('shows long changed lines cut to size, however many bytes they hold before the cut', () => {
    // 30 changed lines of 50,000 characters: 3 MB before cutting, about 60 KB after.
    const lines = (fill: string) => Array.from({ length: 30 }, () => fill.repeat(50_000)).join('\n');
    const blocks = buildDiffBlocks('f.txt', `top\n${lines('a')}\nend\n`, `top\n${lines('b')}\nend\n`);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.isSummary).toBe(false);
    expect(bytesOf(blocks)).toBeLessThan(100_000);
  });

  it('keeps every display within the budget (property)', () => {
    const line = fc.oneof(fc.string({ maxLength: 50 }), fc.string({ minLength: 900, maxLength: 3_000 }));
    const text = fc.array(line, { maxLength: 60 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(bytesOf(buildDiffBlocks('f.txt', a, b))).toBeLessThanOrEqual(DIFF_DISPLAY_MAX_BYTES);
      }),
      { numRuns: 200 },
    );
  });
});

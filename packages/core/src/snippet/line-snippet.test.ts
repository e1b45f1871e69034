import { describe, expect, it } from 'vitest';
import { changedLines } from '../diff/changed-lines.js';
import { lineSnippet, snippetCutSentence, SNIPPET_MAX_BYTES, withFinalLineBreak } from './line-snippet.js';
import { replacementLineSpans } from './replacement-spans.js';

const text = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

describe('lineSnippet', () => {
  it('numbers a piece of a file from its first line (firstLine), the cut lines too', () => {
    expect(lineSnippet(text, [{ from: 2, count: 1 }], { firstLine: 1001, context: 1 }).output).toBe(
      '  1001\tline 1\n  1002\tline 2\n  1003\tline 3\n',
    );
    const cut = lineSnippet(text, [{ from: 2, count: 30 }], { firstLine: 101, maxBytes: 40 });
    expect(cut.unshown).toEqual({ from: 103, to: 134 });
  });

  it('shows a place with three lines of context in ReadFile format', () => {
    expect(lineSnippet(text, [{ from: 10, count: 1 }]).output).toBe(
      [7, 8, 9, 10, 11, 12, 13].map((n) => `${String(n).padStart(6)}\tline ${n}\n`).join(''),
    );
  });

  it('merges places a few lines apart and parts distant ones with a gap line', () => {
    const output = lineSnippet(text, [
      { from: 5, count: 1 },
      { from: 12, count: 1 },
      { from: 30, count: 2 },
    ]).output;
    const numbers = output
      .split('\n')
      .filter(Boolean)
      .map((line) => (line === '...' ? '...' : Number(line.split('\t')[0])));
    expect(numbers).toEqual([
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      10,
      11,
      12,
      13,
      14,
      15,
      '...',
      27,
      28,
      29,
      30,
      31,
      32,
      33,
      34,
    ]);
  });

  it('shows the lines around a deletion point and clamps at the ends', () => {
    expect(lineSnippet(text, [{ from: 1, count: 0 }]).output).toBe(
      '     1\tline 1\n     2\tline 2\n     3\tline 3\n',
    );
    expect(
      lineSnippet(text, [{ from: 40, count: 1 }])
        .output.split('\n')
        .filter(Boolean),
    ).toHaveLength(4);
  });

  it('cuts at 8 KiB by whole lines and names the lines left out, from the head or the tail', () => {
    const long = Array.from({ length: 300 }, (_, index) => `${'x'.repeat(60)} ${index + 1}`).join('\n');
    const head = lineSnippet(long, [{ from: 1, count: 300 }]);
    expect(Buffer.byteLength(head.output)).toBeLessThanOrEqual(SNIPPET_MAX_BYTES);
    const shownCount = head.output.split('\n').filter(Boolean).length;
    expect(head.unshown).toEqual({ from: shownCount + 1, to: 300 });
    const tail = lineSnippet(long, [{ from: 1, count: 300 }], { keep: 'tail' });
    // The text has no final line break: nor has the snippet's last line.
    expect(tail.output.endsWith(`\n   300\t${'x'.repeat(60)} 300`)).toBe(true);
    expect(tail.unshown).toEqual({ from: 1, to: 300 - tail.output.split('\n').filter(Boolean).length });
    expect(snippetCutSentence({ from: 5, to: 9 })).toBe(
      ' The output is cut at 8192 bytes: read lines 5-9 for the rest.',
    );
  });

  it('shows control characters as pictures and cuts very long lines as ReadFile cuts them', () => {
    const output = lineSnippet(`a\u001bb\n${'y'.repeat(3000)}\n`, [{ from: 1, count: 2 }]).output;
    expect(output).toContain('a␛b');
    // 2000 code points with the line break, `...` included (docs/read-file.md#which-lines-are-shown).
    expect(output).toContain(`\t${'y'.repeat(1996)}...\n`);
  });

  it('cuts a long line exactly where ReadFile cuts it, never inside an emoji', () => {
    // 1999 characters and an emoji: ReadFile keeps 1996 of them; a cut at 2000 UTF-16 units split the emoji and
    // handed the model a lone surrogate, which some model APIs refuse.
    const emojiLine = `${'a'.repeat(1999)}😀tail`;
    // Exactly 2000 code points with its break is not cut; the file's last line, without a break, has room for one more.
    const full = `${'b'.repeat(1999)}`;
    const last = `${'c'.repeat(2000)}`;
    const output = lineSnippet(`${emojiLine}\n${full}\n${last}`, [{ from: 1, count: 3 }]).output;
    expect(output).toBe(`     1\t${'a'.repeat(1996)}...\n     2\t${full}\n     3\t${last}`);
    expect(output).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('the end of a snippet', () => {
  const unterminated = 'one\ntwo\nthree';

  it('ends the last line without a line break when the file has none, as ReadFile ends it', () => {
    expect(lineSnippet(unterminated, [{ from: 3, count: 1 }]).output).toBe(
      '     1\tone\n     2\ttwo\n     3\tthree',
    );
    expect(lineSnippet(`${unterminated}\n`, [{ from: 3, count: 1 }]).output).toBe(
      '     1\tone\n     2\ttwo\n     3\tthree\n',
    );
    // A piece before the end, and the last lines kept by a tail snippet.
    expect(lineSnippet(unterminated, [{ from: 1, count: 1 }], { context: 1 }).output).toBe(
      '     1\tone\n     2\ttwo\n',
    );
    expect(lineSnippet(unterminated, [{ from: 3, count: 1 }], { keep: 'tail', maxBytes: 23 })).toEqual({
      output: '     2\ttwo\n     3\tthree',
      unshown: { from: 1, to: 1 },
    });
  });

  it('counts the last line without its missing break against the budget', () => {
    // 12 bytes: the line fits as it is shown, with no break after it.
    expect(lineSnippet('a\nthree', [{ from: 2, count: 1 }], { context: 0, maxBytes: 12 }).output).toBe(
      '     2\tthree',
    );
  });

  it('ends a piece cut inside its last line as that line goes on: with a break, cut as ReadFile cuts it', () => {
    const long = `a\n${'b'.repeat(3000)}`;
    expect(lineSnippet(long, [{ from: 1, count: 1 }]).output).toBe(
      `     1\ta\n     2\t${'b'.repeat(1997)}...`,
    );
    expect(lineSnippet(long, [{ from: 1, count: 1 }], { endsInsideLine: true }).output).toBe(
      `     1\ta\n     2\t${'b'.repeat(1996)}...\n`,
    );
  });

  it('puts a line break after the last line for text that follows it', () => {
    expect(withFinalLineBreak('     1\tone')).toBe('     1\tone\n');
    expect(withFinalLineBreak('     1\tone\n')).toBe('     1\tone\n');
    expect(withFinalLineBreak('')).toBe('');
  });
});

describe('replacementLineSpans', () => {
  it('maps replacements of the old text to lines of the new text', () => {
    // old: a\nb\nc\nd\n ; b -> B1\nB2, d\n deleted
    const newText = 'a\nB1\nB2\nc\n';
    expect(
      replacementLineSpans(newText, [
        { start: 2, end: 3, text: 'B1\nB2' },
        { start: 6, end: 8, text: '' },
      ]),
    ).toEqual([
      { from: 2, count: 2 },
      { from: 5, count: 0 },
    ]);
  });

  it('counts a deletion inside a line as a change of that line', () => {
    expect(replacementLineSpans('ab\n', [{ start: 1, end: 2, text: '' }])).toEqual([{ from: 1, count: 1 }]);
  });
});

describe('changedLines', () => {
  it('lists each changed place in old and new lines', () => {
    expect(changedLines('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n', 200)).toEqual([
      { oldFrom: 2, oldCount: 1, newFrom: 2, newCount: 1 },
      { oldFrom: 5, oldCount: 0, newFrom: 5, newCount: 1 },
    ]);
  });

  it('searches a changed middle of up to 10,000 lines a side; a longer one is one change', () => {
    const lines = (count: number, name: (index: number) => string) =>
      Array.from({ length: count }, (_, index) => `${name(index)}\n`).join('');
    // Two changed lines 9,998 lines apart: the middle between the shared edges is 10,000 lines.
    const changedTwice = (gap: number) => {
      const old = lines(gap + 2, (index) => `line ${index}`);
      const updated = old.replace('line 0\n', 'first\n').replace(`line ${gap + 1}\n`, 'last\n');
      return changedLines(`head\n${old}tail\n`, `head\n${updated}tail\n`, 60_000);
    };
    expect(changedTwice(9_998)).toEqual([
      { oldFrom: 2, oldCount: 1, newFrom: 2, newCount: 1 },
      { oldFrom: 10_001, oldCount: 1, newFrom: 10_001, newCount: 1 },
    ]);
    expect(changedTwice(9_999)).toEqual([{ oldFrom: 2, oldCount: 10_001, newFrom: 2, newCount: 10_001 }]);
  });
});

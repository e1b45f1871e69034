import { describe, expect, it } from 'vitest';
import {
  countLineBreaks,
  detectLineEnding,
  normalizeLineEndings,
  normalizedOffsets,
  rawOffsets,
} from './line-endings.js';
import { restoreLineEndings } from './restore-line-endings.js';

describe('detectLineEnding', () => {
  it('returns the most frequent ending', () => {
    expect(detectLineEnding('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(detectLineEnding('a\rb\rc\r\n')).toBe('\r');
    expect(detectLineEnding('a\nb\nc\r\n')).toBe('\n');
  });

  it("defaults to '\\n' without any break and breaks ties towards '\\n' then '\\r\\n'", () => {
    expect(detectLineEnding('no break')).toBe('\n');
    expect(detectLineEnding('')).toBe('\n');
    expect(detectLineEnding('a\nb\r\n')).toBe('\n');
    expect(detectLineEnding('a\r\nb\r')).toBe('\r\n');
  });
});

describe('normalizeLineEndings', () => {
  it('turns CRLF and lone CR into LF', () => {
    expect(normalizeLineEndings('a\r\nb\rc\nd\r\r\n')).toBe('a\nb\nc\nd\n\n');
  });
});

describe('rawOffsets and normalizedOffsets', () => {
  it('maps normalised offsets back to raw ones', () => {
    const raw = 'ab\r\ncd\r\n\r\ne\rf';
    const normalized = normalizeLineEndings(raw);
    const offsets = [0, 2, 3, 5, 6, 7, 8, normalized.length];
    const mapped = rawOffsets(raw, offsets);
    expect(mapped).toEqual([0, 2, 4, 6, 8, 10, 11, raw.length]);
    for (const [index, offset] of offsets.entries()) {
      expect(normalizeLineEndings(raw.slice(0, mapped[index]))).toBe(normalized.slice(0, offset));
    }
    expect(normalizedOffsets(raw, mapped)).toEqual(offsets);
  });

  it('puts a raw offset inside a CRLF on the line feed it became', () => {
    expect(normalizedOffsets('a\r\nb', [2, 3])).toEqual([1, 2]);
  });
});

describe('restoreLineEndings', () => {
  it('keeps a uniform CRLF file CRLF, new lines included', () => {
    expect(restoreLineEndings('a\r\nb\r\n', 'a\nX\nb\n', '\r\n')).toBe('a\r\nX\r\nb\r\n');
  });

  it('keeps every untouched ending of a mixed file and gives new lines the dominant one', () => {
    const original = 'one\r\ntwo\nthree\rfour\r\nfive';
    expect(restoreLineEndings(original, 'one\ntwo\nNEW\nthree\nfour\nfive', '\r\n')).toBe(
      'one\r\ntwo\nNEW\r\nthree\rfour\r\nfive',
    );
  });

  it('keeps the ending of a line edited in place', () => {
    const original = 'a\r\nb\rc\n';
    expect(restoreLineEndings(original, 'a\nB!\nc\n', '\n')).toBe('a\r\nB!\rc\n');
  });

  it('keeps every line ending around several separate in-line edits', () => {
    const original = 'x1\ry\r\nx2\nz\rx3\r\n';
    expect(restoreLineEndings(original, 'X1\ny\nX2\nz\nX3\n', '\r\n')).toBe('X1\ry\r\nX2\nz\rX3\r\n');
  });

  it('keeps the break after a replaced block; a break inside it is reused once, the extra one is new', () => {
    const original = 'head\ra\nb\r\ntail\r';
    expect(restoreLineEndings(original, 'head\nx\ny\nz\ntail\n', '\r')).toBe('head\rx\ny\rz\r\ntail\r');
  });

  it('gives each of several edits on neighbouring lines its own line ending', () => {
    const original = 'line 0 abc\rline 1 abcdefg\n';
    expect(restoreLineEndings(original, 'liNEW0 abc\nliNEWA\n\nBNEWefg\n', '\n')).toBe(
      'liNEW0 abc\rliNEWA\n\nBNEWefg\n',
    );
  });

  it('keeps "no final newline" and adds none', () => {
    expect(restoreLineEndings('a\r\nb', 'a\nc', '\r\n')).toBe('a\r\nc');
    expect(restoreLineEndings('a\r\nb\r\n', 'a\nb', '\r\n')).toBe('a\r\nb');
  });

  it('gives a line that gains a final newline the dominant ending', () => {
    expect(restoreLineEndings('a\rb\r\nc', 'a\nb\nc\n', '\r')).toBe('a\rb\r\nc\r');
  });

  it('returns the original when nothing changed and handles deletions', () => {
    expect(restoreLineEndings('a\r\nb\rc', 'a\nb\nc', '\n')).toBe('a\r\nb\rc');
    expect(restoreLineEndings('a\r\nb\rc\n', 'a\nc\n', '\n')).toBe('a\r\nc\n');
    expect(restoreLineEndings('a\r\nb\r', '', '\n')).toBe('');
  });

  it('never lets a kept lone CR and a LF fuse into one CRLF', () => {
    // Deleting "X" joins the lone CR after "a" and the LF after "X": one of them has to give way.
    const joined = restoreLineEndings('a\rX\nb\r\n', 'a\n\nb\n', '\r\n');
    expect(normalizeLineEndings(joined)).toBe('a\n\nb\n');
    expect(joined).toBe('a\r\rb\r\n');
    // A new empty line after a CR line, and a CR line right before a kept LF.
    const inserted = restoreLineEndings('a\rb\nc\r\n', 'a\n\nb\nc\n', '\n');
    expect(normalizeLineEndings(inserted)).toBe('a\n\nb\nc\n');
    const beforeKept = restoreLineEndings('x\ny\rz\r\n', 'x\ny\nNEW\n\nz\n', '\r');
    expect(normalizeLineEndings(beforeKept)).toBe('x\ny\nNEW\n\nz\n');
  });

  it('keeps both a lone CR and a LF that an edit between them only replaced, writing its own breaks to fit', () => {
    // Replacing "a" by a line break: it cannot be a LF (it would fuse with the CR) nor a lone CR (with the LF after).
    expect(restoreLineEndings('X\ra\n', 'X\n\n\n', '\n')).toBe('X\r\r\n\n');
    expect(restoreLineEndings('X\ra\nb', 'X\n\n\n\nb', '\n')).toBe('X\r\r\r\n\nb');
    expect(restoreLineEndings('X\ra\nb', 'X\n\nc\nb', '\n')).toBe('X\r\rc\nb');
    // Found in the differential test of StrReplaceFile's streamed path (seed 1537765539): a new line after a lone CR.
    expect(restoreLineEndings('\n\raa', '\n\n\na', '\n')).toBe('\n\r\ra');
  });

  it('keeps a LF that existed after a CR the line matching gives to a rewritten line', () => {
    // From the property with new text that may end with a break: "line 0 " became "NEW\n" before the kept
    // "\nline 1 \r", and "line 0 ab\rline 1 abc" became "line 0NEW\n" before the kept "\nline 2 \n". The CR written
    // before the kept LF becomes a CRLF; the LF used to be written as CR.
    expect(restoreLineEndings('line 0 \nline 1 \rline 2 \r', 'NEW\n\nline 1 \nNEW', '\r')).toBe(
      'NEW\r\n\nline 1 \rNEW',
    );
    expect(
      restoreLineEndings('line 0 ab\rline 1 abc\nline 2 \nline 3 \n', 'line 0NEW\n\nline 2 \nNEW \n', '\n'),
    ).toBe('line 0NEW\r\n\nline 2 \nNEW \n');
    // A new LF after a CR line still gives way itself: the CR is an original break and stays.
    expect(restoreLineEndings('Q\na\rb\n', 'W\na\n\nX\n', '\n')).toBe('W\na\r\rX\n');
  });

  it('normalises stray carriage returns of the updated text', () => {
    expect(restoreLineEndings('a\r\nb\n', 'a\r\nb\r\nc\r\n', '\n')).toBe('a\r\nb\nc\n');
  });

  it('keeps endings of lines that moved between unchanged anchors of a different text', () => {
    const original = 'alpha\rbeta\r\ngamma\ndelta\r';
    const updated = 'new first\ndelta\ngamma\nbeta\nalpha\n';
    // Patience matching keeps one of the moved lines (the longest increasing run), the rest are new.
    const restored = restoreLineEndings(original, updated, '\n');
    expect(normalizeLineEndings(restored)).toBe(updated);
    expect(restored.startsWith('new first\n')).toBe(true);
  });

  it('stays fast on a large mixed file with a local change', () => {
    const lines: string[] = [];
    for (let index = 0; index < 200_000; index++)
      lines.push(`line ${index}${index % 3 === 0 ? '\r\n' : '\n'}`);
    const original = lines.join('');
    const updated = normalizeLineEndings(original).replace('line 100000\n', 'changed\nand added\n');
    const restored = restoreLineEndings(original, updated, '\n');
    const expected = original.replace('line 100000\n', 'changed\nand added\n');
    expect(restored).toBe(expected);
  });
});

describe('countLineBreaks', () => {
  it('counts the line breaks of a range, its end excluded', () => {
    expect(countLineBreaks('a\nb\n\nc')).toBe(3);
    expect(countLineBreaks('a\nb\n\nc', 2, 4)).toBe(1);
    expect(countLineBreaks('a\nb\n\nc', 1, 1)).toBe(0);
  });
});

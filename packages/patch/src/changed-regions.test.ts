import { describe, expect, it } from 'vitest';
import { changedRegions, type ChangedFile } from './changed-regions.js';

const lines = (count: number, word = 'line') =>
  Array.from({ length: count }, (_, index) => `${word} ${index + 1}`).join('\n') + '\n';

const file = (name: string, text: string, from = 1, count = 1): ChangedFile => ({
  name,
  text,
  spans: [{ from, count }],
});

describe('changedRegions', () => {
  it('shows every file whole, parted by a blank line, when all fit', () => {
    expect(changedRegions([file('a.txt', 'one\n'), file('b.txt', 'two\n')])).toBe(
      'a.txt:\n     1\tone\n\nb.txt:\n     1\ttwo\n',
    );
  });

  it("counts a file's name line and its cut note in its share, and parts the next file by a blank line", () => {
    const output = changedRegions([file('a.txt', lines(10), 1, 10), file('b.txt', lines(10), 1, 10)], 100);
    // (100 - 1 blank line) / 2 = 49 bytes each: the name line (7), one line (14), the note (25).
    expect(output).toBe(
      'a.txt:\n     1\tline 1\n(lines 2-10 not shown)\n\nb.txt:\n     1\tline 1\n(lines 2-10 not shown)\n',
    );
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(100);
  });

  it('shows a name and its note alone when not even one line fits', () => {
    expect(changedRegions([file('a.txt', `${'é'.repeat(40)}\n`)], 40)).toBe(
      'a.txt:\n(lines 1-1 not shown)\n',
    );
  });

  it('counts on a last line the files whose share could not hold their name and note', () => {
    const files = Array.from({ length: 5 }, (_, index) => file(`f${index}.txt`, lines(10), 1, 10));
    // A file takes at least 32 bytes: its name line (8) and its widest note, `(lines 13-13 not shown)` (24).
    // Five files would get 23 bytes each, four 23, three 30 (the last line takes 25): two files of 46.
    const output = changedRegions(files, 120);
    expect(output).toBe(
      'f0.txt:\n     1\tline 1\n(lines 2-10 not shown)\n\n' +
        'f1.txt:\n     1\tline 1\n(lines 2-10 not shown)\n\n' +
        '(3 more files not shown)\n',
    );
    expect(Buffer.byteLength(output)).toBe(117);
  });

  it('shows whole a file whose lines take fewer bytes than its note would', () => {
    const files = Array.from({ length: 5 }, (_, index) => file(`f${index}.txt`, 'x\n'));
    // 17 bytes each (its name line and its one line), in shares of 23: a note would need 30.
    expect(changedRegions(files, 120)).toBe(files.map((shown) => `${shown.name}:\n     1\tx\n`).join('\n'));
  });

  it('counts a single file left out in the singular, and every file when not one name fits', () => {
    expect(changedRegions([file('a'.repeat(200), 'x\n')], 100)).toBe('(1 more file not shown)\n');
    expect(changedRegions([file('a'.repeat(200), 'x\n'), file('b', 'y\n')], 100)).toBe(
      '(2 more files not shown)\n',
    );
  });

  it("ends a file's last line as ReadFile does, with a line break before the blank line when a file follows", () => {
    expect(changedRegions([file('a.txt', 'one'), file('b.txt', 'two')])).toBe(
      'a.txt:\n     1\tone\n\nb.txt:\n     1\ttwo',
    );
    // The last file needs no break: its name line (7) and its line (10) fit in 17 bytes.
    expect(changedRegions([file('a.txt', 'one')], 17)).toBe('a.txt:\n     1\tone');
  });

  it('counts in its share the line break a followed file without a final one needs', () => {
    const unterminated = file('a.txt', 'l1\nl2\nl3\nl4', 4, 1);
    // (95 - 1 blank line) / 2 = 47 bytes each: the name line (7), the four lines (39) and the break after them.
    expect(changedRegions([unterminated, file('b.txt', 'x\n')], 95)).toBe(
      'a.txt:\n     1\tl1\n     2\tl2\n     3\tl3\n     4\tl4\n\nb.txt:\n     1\tx\n',
    );
    // 46 bytes each: the four lines fit only without the break, so they are cut.
    const output = changedRegions([unterminated, file('b.txt', 'x\n')], 93);
    expect(output).toBe('a.txt:\n     1\tl1\n(lines 2-4 not shown)\n\nb.txt:\n     1\tx\n');
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(93);
  });

  it('shows nothing for no file', () => {
    expect(changedRegions([])).toBe('');
  });
});

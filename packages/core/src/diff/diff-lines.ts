/** Number of lines of a '\n'-normalised text: a final '\n' ends the last line, it does not start a new one. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

/**
 * A '\n'-normalised text's lines, as the diff compares and shows them, by their offsets: no line is cut out of the
 * text until it is compared or shown (splitting two 5 MB texts into 120,000 strings was half of what finding their
 * changed lines cost). Line `i` is `[starts[i], starts[i + 1])`, its '\n' included.
 */
export class DiffLines {
  /** Number of lines. */
  readonly count: number;
  private lineStarts: Int32Array | undefined;

  constructor(readonly text: string) {
    this.count = countLines(text);
  }

  /** Where each line starts, and the text's end: found on the first look at a line by its number. */
  private get starts(): Int32Array {
    if (this.lineStarts === undefined) {
      const { text, count } = this;
      const starts = new Int32Array(count + 1);
      let line = 1;
      for (let at = text.indexOf('\n'); at !== -1 && line < count; at = text.indexOf('\n', at + 1)) {
        starts[line++] = at + 1;
      }
      starts[count] = text.length;
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  /**
   * The line as compared: with its '\n', so that a last line without one (`a`) differs from the same line with one
   * (`a\n`), the file's bytes changing, while both show the line `a`.
   */
  key(index: number): string {
    const starts = this.starts;
    return this.text.slice(starts[index], starts[index + 1]);
  }

  /** Where line `index` starts in the text (`count`: the text's end). */
  offset(index: number): number {
    return this.starts[index]!;
  }

  /** Whether line `index` and line `otherIndex` of `other` are the same line (as compared). */
  same(index: number, other: DiffLines, otherIndex: number): boolean {
    const starts = this.starts;
    const otherStarts = other.starts;
    const length = starts[index + 1]! - starts[index]!;
    return (
      length === otherStarts[otherIndex + 1]! - otherStarts[otherIndex]! &&
      this.key(index) === other.key(otherIndex)
    );
  }

  /** Characters of line `index` as shown, without its '\n'. */
  shownLength(index: number): number {
    const starts = this.starts;
    const end = starts[index + 1]!;
    return end - starts[index]! - (this.text.charCodeAt(end - 1) === 10 ? 1 : 0);
  }

  /** Lines `[from, to)` as shown: joined by '\n', without the last one's. */
  shown(from: number, to: number): string {
    if (to <= from) return '';
    const starts = this.starts;
    const end = starts[to]!;
    return this.text.slice(starts[from], this.text.charCodeAt(end - 1) === 10 ? end - 1 : end);
  }

  /**
   * A number every equal line gets, from its length and about eight of its characters, evenly spread: cheap however
   * long the line, and different for nearly all different lines (fewer characters met too often in code and prose,
   * where the same characters stand at the same places). It only picks the lines worth comparing whole, so a
   * different line it misses costs one comparison, while each character more costs every line of a first call,
   * before the JIT has compiled it (sixteen made the sketches of two texts of 10,000 long lines take 10 ms).
   */
  sketch(index: number): number {
    const starts = this.starts;
    const start = starts[index]!;
    const length = starts[index + 1]! - start;
    const text = this.text;
    let sketch = Math.imul(length, 0x9e3779b1);
    const step = (length >> 3) + 1;
    for (let at = start + length - 1; at >= start; at -= step) {
      sketch = Math.imul(sketch ^ text.charCodeAt(at), 0x85ebca6b);
    }
    return sketch ^ (sketch >>> 15);
  }
}

/** How many lines two texts share at their start (`prefix`) and, apart from those, at their end (`suffix`). */
export interface SharedEdges {
  prefix: number;
  suffix: number;
  /**
   * Where the new text's lines between those start and end (character offsets): the only lines of the new text that
   * may differ from the old text's.
   */
  newMiddle: { from: number; to: number };
}

/**
 * The lines `oldLines` and `newLines` share at their start and, apart from those, at their end, found by walking both
 * texts from each end until they differ: no line is numbered, so a rewrite of a big file costs two lines here.
 */
export function sharedEdges(oldLines: DiffLines, newLines: DiffLines): SharedEdges {
  const a = oldLines.text;
  const b = newLines.text;
  const most = Math.min(oldLines.count, newLines.count);
  let prefix = 0;
  let aAt = 0;
  let bAt = 0;
  for (; prefix < most; prefix++) {
    const aEnd = lineEnd(a, aAt);
    const bEnd = lineEnd(b, bAt);
    if (aEnd - aAt !== bEnd - bAt || a.slice(aAt, aEnd) !== b.slice(bAt, bEnd)) break;
    aAt = aEnd;
    bAt = bEnd;
  }
  let suffix = 0;
  let aEnd = a.length;
  let bEnd = b.length;
  for (; suffix < most - prefix; suffix++) {
    const aStart = lineStart(a, aEnd);
    const bStart = lineStart(b, bEnd);
    if (aEnd - aStart !== bEnd - bStart || a.slice(aStart, aEnd) !== b.slice(bStart, bEnd)) break;
    aEnd = aStart;
    bEnd = bStart;
  }
  return { prefix, suffix, newMiddle: { from: bAt, to: Math.max(bAt, bEnd) } };
}

/** The end of the line starting at `start`, its '\n' included. */
function lineEnd(text: string, start: number): number {
  const found = text.indexOf('\n', start);
  return found === -1 ? text.length : found + 1;
}

/** The start of the line ending at `end` (after its '\n', or at the text's end). */
function lineStart(text: string, end: number): number {
  return end < 2 ? 0 : text.lastIndexOf('\n', end - 2) + 1;
}

import { countLineBreaks } from './line-endings.js';
import type { TextReplacement } from './text-replacement.js';

/** One change of the original text as a draft keeps it: `[start, end)` of the original gave way to `text`. */
export interface DraftChange {
  start: number;
  end: number;
  text: string;
  /** Characters it adds to the text (negative when it removes some). */
  delta: number;
  /** Line breaks it adds (negative when it removes some). */
  breaks: number;
}

/**
 * Where a current offset falls: at `at` in the text of change `index` (`inChange`), or on original offset `at`, after
 * change `index` (-1: before all). One shape for both, so the code reading it stays monomorphic.
 */
interface Place {
  index: number;
  inChange: boolean;
  at: number;
}

/** Line queries answered by counting before the original's line breaks are listed once. */
const COUNTS_BEFORE_BREAK_LIST = 2;

/** The offsets of every line break of `text`, ascending. */
function breakOffsets(text: string): Int32Array {
  const offsets = new Int32Array(countLineBreaks(text));
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) offsets[count++] = at;
  return offsets;
}

/** How many of the ascending `offsets` are below `limit`. */
function countBelow(offsets: Int32Array, limit: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (offsets[middle]! < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The changes of a text, kept as replacements of the original text, sorted and apart, with running sums of what they
 * add: a change costs its own size and a search for its place among the changes, never a pass over the whole text,
 * and the current text is read in pieces without being built. The running sums are extended only as far as a
 * question needs, so changes made from left to right keep them valid at no cost.
 */
export class DraftChanges {
  /** The changes, sorted, apart: none overlaps or touches another (touching ones are merged). */
  private changes: DraftChange[] = [];
  /** `shiftBefore[i]`: characters the changes before change `i` add; valid for `i < shiftBefore.length`. */
  private shiftBefore: number[] = [0];
  /** `breaksBefore[i]`: line breaks the changes before change `i` add; as long as `shiftBefore`. */
  private breaksBefore: number[] = [0];
  private shift = 0;
  private originalBreaks: Int32Array | undefined;
  private breakCounts = 0;

  constructor(readonly original: string) {}

  /** Length of the current text. */
  get length(): number {
    return this.original.length + this.shift;
  }

  /** The current text, built whole. */
  text(): string {
    const parts: string[] = [];
    let at = 0;
    for (const change of this.changes) {
      parts.push(this.original.slice(at, change.start), change.text);
      at = change.end;
    }
    parts.push(this.original.slice(at));
    return parts.join('');
  }

  /** Every change, as replacements of the original text (sorted, apart). */
  replacements(): TextReplacement[] {
    return this.changes.map(({ start, end, text }) => ({ start, end, text }));
  }

  /** Every change in order, with the offset where its text starts in the current text. */
  *withStarts(): Generator<[DraftChange, number]> {
    for (let index = 0; index < this.changes.length; index++)
      yield [this.changes[index]!, this.changeStart(index)];
  }

  /** Where the text of `change` starts in the current text, or `undefined` when it was merged into a later one. */
  startOf(change: DraftChange): number | undefined {
    const index = this.changeAtOrBefore(change.start);
    return this.changes[index] === change ? this.changeStart(index) : undefined;
  }

  /** The character code at `offset` (within the current text). */
  charCodeAt(offset: number): number {
    const place = this.place(offset);
    return place.inChange
      ? this.changes[place.index]!.text.charCodeAt(place.at)
      : this.original.charCodeAt(place.at);
  }

  /** The characters `[from, to)` of the current text (`0 <= from <= to <= length`). */
  slice(from: number, to: number): string {
    const { changes, original } = this;
    const place = this.place(from);
    let { index, inChange, at } = place;
    let result = '';
    let remaining = to - from;
    while (remaining > 0) {
      if (inChange) {
        const change = changes[index]!;
        const part = change.text.slice(at, at + remaining);
        result += part;
        remaining -= part.length;
        inChange = false;
        at = change.end;
      } else {
        const next = index + 1 < changes.length ? changes[index + 1]!.start : original.length;
        const stop = Math.min(next, at + remaining);
        result += original.slice(at, stop);
        remaining -= stop - at;
        index += 1;
        inChange = true;
        at = 0;
      }
    }
    return result;
  }

  /** The 1-based line of the current text holding `offset` (within it; a line starts after each `\n`). */
  lineNumberAt(offset: number): number {
    if (this.changes.length === 0) return 1 + this.originalBreaksBelow(offset);
    const place = this.place(offset);
    this.prefixesTo(place.index + 1);
    if (place.inChange) {
      const change = this.changes[place.index]!;
      return (
        1 +
        this.originalBreaksBelow(change.start) +
        this.breaksBefore[place.index]! +
        countLineBreaks(change.text, 0, place.at)
      );
    }
    return 1 + this.originalBreaksBelow(place.at) + this.breaksBefore[place.index + 1]!;
  }

  /** The offset in the current text where the text of change `index` starts. */
  private changeStart(index: number): number {
    this.prefixesTo(index);
    return this.changes[index]!.start + this.shiftBefore[index]!;
  }

  private changeEnd(index: number): number {
    return this.changeStart(index) + this.changes[index]!.text.length;
  }

  /** Extends the running sums over the changes up to `shiftBefore[index]`. */
  private prefixesTo(index: number): void {
    for (let at = this.shiftBefore.length - 1; at < index; at++) {
      const change = this.changes[at]!;
      this.shiftBefore.push(this.shiftBefore[at]! + change.delta);
      this.breaksBefore.push(this.breaksBefore[at]! + change.breaks);
    }
  }

  /** The last change whose original range starts at or before `original`, or -1. */
  private changeAtOrBefore(original: number): number {
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.changes[middle]!.start <= original) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  }

  /**
   * The last change whose text starts at or before current `offset`, or -1. Below the changes whose running sums
   * are known, a binary search; beyond them, the sums are extended only as far as the answer.
   */
  private changeAtOrBeforeOffset(offset: number): number {
    let known = this.shiftBefore.length - 1;
    if (known < this.changes.length && this.changeStart(known) <= offset) {
      while (known + 1 < this.changes.length && this.changeStart(known + 1) <= offset) known++;
      return known;
    }
    let low = 0;
    let high = known;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.changeStart(middle) <= offset) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  }

  /** Where current `offset` falls; an offset right after a change's text is the original one after it. */
  private place(offset: number): Place {
    const index = this.changeAtOrBeforeOffset(offset);
    if (index < 0) return { index, inChange: false, at: offset };
    const start = this.changeStart(index);
    const change = this.changes[index]!;
    if (offset < start + change.text.length) return { index, inChange: true, at: offset - start };
    return { index, inChange: false, at: change.end + offset - start - change.text.length };
  }

  /** The original offset of current `offset`, which lies in original text after change `index` (-1: before all). */
  private originalAfter(index: number, offset: number): number {
    return index < 0 ? offset : this.changes[index]!.end + offset - this.changeEnd(index);
  }

  /** The current offset of original offset `original`, or `undefined` when a change replaced that character. */
  currentOffsetOf(original: number): number | undefined {
    const index = this.changeAtOrBefore(original);
    if (index < 0) return original;
    if (original < this.changes[index]!.end) return undefined;
    this.prefixesTo(index + 1);
    return original + this.shiftBefore[index + 1]!;
  }

  /** Whether the original characters `[start, end)` are all still there, side by side, in the current text. */
  keepsOriginal(start: number, end: number): boolean {
    if (start < 0 || end > this.original.length) return false;
    const index = this.changeAtOrBefore(end - 1);
    return index < 0 || this.changes[index]!.end <= start;
  }

  /** Line breaks of the original text before original offset `offset`. */
  private originalBreaksBelow(offset: number): number {
    if (this.originalBreaks === undefined && this.breakCounts++ < COUNTS_BEFORE_BREAK_LIST) {
      return countLineBreaks(this.original, 0, offset);
    }
    this.originalBreaks ??= breakOffsets(this.original);
    return countBelow(this.originalBreaks, offset);
  }

  /**
   * Replaces current `[start, end)` by `text` (`\n`-normalised), merging it with the changes it overlaps or touches:
   * their texts around the range stay, and the merged change replaces the union of their original ranges. Returns
   * the change that now holds the range, if any is left.
   */
  apply(start: number, end: number, text: string): DraftChange | undefined {
    const changes = this.changes;
    // `first`: the first change ending at or after `start`; `last`: the last one starting at or before `end`. The
    // ones between touch or overlap the range.
    const before = this.changeAtOrBeforeOffset(start);
    const first = before >= 0 && this.changeEnd(before) >= start ? before : before + 1;
    const last = this.changeAtOrBeforeOffset(end);
    const removed = this.slice(start, end);
    let delta = text.length - removed.length;
    let breaks = countLineBreaks(text) - countLineBreaks(removed);
    let merged = text;
    let originalStart = this.originalAfter(first - 1, start);
    let originalEnd = this.originalAfter(last, end);
    if (first <= last) {
      const firstStart = this.changeStart(first);
      if (firstStart < start) {
        merged = changes[first]!.text.slice(0, start - firstStart) + merged;
        originalStart = changes[first]!.start;
      }
      const lastStart = this.changeStart(last);
      if (lastStart + changes[last]!.text.length > end) {
        merged += changes[last]!.text.slice(end - lastStart);
        originalEnd = changes[last]!.end;
      }
      for (let index = first; index <= last; index++) {
        delta += changes[index]!.delta;
        breaks += changes[index]!.breaks;
      }
    }
    const change: DraftChange = { start: originalStart, end: originalEnd, text: merged, delta, breaks };
    const gone = originalStart === originalEnd && merged === '';
    if (gone) changes.splice(first, last - first + 1);
    else if (first === changes.length) changes.push(change);
    else changes.splice(first, last - first + 1, change);
    // The running sums up to the merged change stay; the ones after it are found again when asked for.
    if (this.shiftBefore.length > first + 1) {
      this.shiftBefore.length = first + 1;
      this.breaksBefore.length = first + 1;
    }
    this.shift += text.length - removed.length;
    return gone ? undefined : change;
  }
}

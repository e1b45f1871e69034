import { BAD_REPLACEMENTS_MESSAGE } from '../errors.js';
import type { DecodedText } from './codec-types.js';
import { normalizedOffsets } from './line-endings.js';
import { joinPieces, restorePieces } from './restore-line-endings.js';
import { INDEX_GRAM_CHARS, SubstringIndex } from './substring-index.js';
import type { TextReplacement } from './text-replacement.js';

/** One change of the original text as the draft keeps it: `[start, end)` of the original gave way to `text`. */
interface Change {
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

/** A text this short is searched by scanning it: no index pays for itself. */
const INDEX_MIN_CHARS = 16 * 1024;
/**
 * A text longer than this is always searched by scanning: its index takes about 7 bytes a character (56 MB here), more
 * beyond it than a host expects a text edit to take.
 */
const INDEX_MAX_CHARS = 8 * 1024 * 1024;
/** Searches scanned before the index is built: one index costs about as much as a few scans. */
const SCANS_BEFORE_INDEX = 3;
/** Line queries answered by counting before the original's line breaks are listed once. */
const COUNTS_BEFORE_BREAK_LIST = 2;

function countBreaks(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The offsets of every line break of `text`, ascending. */
function breakOffsets(text: string): Int32Array {
  const offsets = new Int32Array(countBreaks(text));
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

/** Start offsets of the occurrences of `needle` in `haystack`, left to right, overlapping ones too when asked. */
function* scanOccurrences(haystack: string, needle: string, overlapping: boolean): Generator<number> {
  if (needle.length === 0) return;
  const step = overlapping ? 1 : needle.length;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + step)) yield at;
}

/** How a {@link TextDraft} searches. */
export interface TextDraftOptions {
  /**
   * `auto` (default): by scanning, until a text of 16 Ki to 8 Mi characters has been searched a few times, then
   * through an index; `indexed`: through an index from the first search, whatever the size; `scanned`: always by
   * scanning.
   */
  search?: 'auto' | 'indexed' | 'scanned';
}

/**
 * A decoded text being changed step by step on its `\n`-normalised form, each change applied to the result of the
 * ones before, while remembering which parts are still the file's own characters. {@link replacements} sums the
 * changes up for `encodeChange`, which writes every untouched byte back as it was.
 *
 * The draft keeps the changes as replacements of the original text, sorted, so that a change costs its own size
 * and a search for the position among the changes, never a pass over the whole text: a thousand edits of a file
 * are a thousand small steps. The whole text is only built when asked for ({@link text}); {@link occurrences}
 * finds a string without it, through an index of the original text and of what the changes wrote, once a draft is
 * searched more than a few times.
 */
export class TextDraft {
  private readonly original: string;
  /** The changes, sorted, apart: none overlaps or touches another (touching ones are merged). */
  private changes: Change[] = [];
  /** `shiftBefore[i]`: characters the changes before change `i` add; valid for `i < shiftBefore.length`. */
  private shiftBefore: number[] = [0];
  /** `breaksBefore[i]`: line breaks the changes before change `i` add; as long as `shiftBefore`. */
  private breaksBefore: number[] = [0];
  private shift = 0;
  private currentText: string | undefined;
  private currentRaw: string | undefined;
  private originalBreaks: Int32Array | undefined;
  private breakCounts = 0;
  private scans = 0;
  private index: SubstringIndex<Change> | undefined;

  private readonly search: NonNullable<TextDraftOptions['search']>;
  /** Whether {@link raw} is {@link text} whatever the changes: the original has no `\r`, and changes write none. */
  readonly rawIsText: boolean;

  constructor(
    readonly decoded: DecodedText,
    options: TextDraftOptions = {},
  ) {
    this.search = options.search ?? 'auto';
    this.original = decoded.text;
    this.rawIsText = decoded.raw === decoded.text;
    this.currentText = decoded.text;
    this.currentRaw = decoded.raw;
  }

  /** The current text, `\n`-normalised (what the model sees). */
  get text(): string {
    if (this.currentText === undefined) {
      const parts: string[] = [];
      let at = 0;
      for (const change of this.changes) {
        parts.push(this.original.slice(at, change.start), change.text);
        at = change.end;
      }
      parts.push(this.original.slice(at));
      this.currentText = parts.join('');
    }
    return this.currentText;
  }

  /** Length of the current {@link text}. */
  get length(): number {
    return this.original.length + this.shift;
  }

  /**
   * The current text as it would be written: line breaks the changes left alone keep their original bytes, new ones
   * get the file's dominant line ending.
   */
  get raw(): string {
    this.currentRaw ??= joinPieces(
      this.decoded.raw,
      restorePieces(this.decoded.raw, this.decoded.format.lineEnding, this.replacements),
    );
    return this.currentRaw;
  }

  /** Offsets in {@link raw} (sorted ascending) as offsets in {@link text}. */
  textOffsets(rawOffsets: readonly number[]): number[] {
    return normalizedOffsets(this.raw, rawOffsets);
  }

  /** Every change so far, as replacements of the original text (sorted, apart): what `encodeChange` takes. */
  get replacements(): TextReplacement[] {
    return this.changes.map(({ start, end, text }) => ({ start, end, text }));
  }

  /** The character code at `offset` of the current text (`NaN` outside it), as `String.prototype.charCodeAt`. */
  charCodeAt(offset: number): number {
    if (!(offset >= 0 && offset < this.length)) return Number.NaN;
    if (this.currentText !== undefined) return this.currentText.charCodeAt(offset);
    const place = this.place(offset);
    return place.inChange
      ? this.changes[place.index]!.text.charCodeAt(place.at)
      : this.original.charCodeAt(place.at);
  }

  /** The characters `[start, end)` of the current text (clamped to it), without building the whole text. */
  slice(start: number, end: number): string {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    if (this.currentText !== undefined) return this.currentText.slice(from, to);
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

  /** The 1-based line of the current text holding `offset` (a line starts after each `\n`). */
  lineNumberAt(offset: number): number {
    if (this.changes.length === 0) return 1 + this.originalBreaksBelow(offset);
    const place = this.place(Math.max(0, Math.min(offset, this.length)));
    this.prefixesTo(place.index + 1);
    if (place.inChange) {
      const change = this.changes[place.index]!;
      return (
        1 +
        this.originalBreaksBelow(change.start) +
        this.breaksBefore[place.index]! +
        countBreaks(change.text, 0, place.at)
      );
    }
    return 1 + this.originalBreaksBelow(place.at) + this.breaksBefore[place.index + 1]!;
  }

  /**
   * Start offsets of the occurrences of `needle` in the current text, ascending: overlapping ones too when
   * `overlapping`, else the non-overlapping ones a left-to-right replacement would take.
   */
  occurrences(needle: string, overlapping: boolean): Iterable<number> {
    if (needle.length === 0) return [];
    const index = this.indexed();
    const found = index && this.findIndexed(index, needle);
    if (found === undefined) return scanOccurrences(this.text, needle, overlapping);
    if (overlapping) return found;
    const apart: number[] = [];
    for (const start of found) {
      const last = apart[apart.length - 1];
      if (last === undefined || start >= last + needle.length) apart.push(start);
    }
    return apart;
  }

  /**
   * Replaces ranges of the current {@link text} (sorted by `start`, not overlapping; `text` `\n`-normalised). Throws
   * a `RangeError` for ranges that are unsorted, overlapping or outside the text.
   */
  replace(changes: readonly TextReplacement[]): void {
    let previousEnd = 0;
    for (const change of changes) {
      if (change.start < previousEnd || change.end < change.start || change.end > this.length) {
        throw new RangeError(BAD_REPLACEMENTS_MESSAGE);
      }
      previousEnd = change.end;
    }
    // From the first to the last, each moved by what the ones before it added: the changes are then found and
    // stored from left to right, where the draft's running sums are still valid.
    let moved = 0;
    for (const { start, end, text } of changes) {
      if (start === end && text === '') continue;
      this.currentText = undefined;
      this.currentRaw = undefined;
      this.apply(start + moved, end + moved, text);
      moved += text.length - (end - start);
    }
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
  private currentOffsetOf(original: number): number | undefined {
    const index = this.changeAtOrBefore(original);
    if (index < 0) return original;
    if (original < this.changes[index]!.end) return undefined;
    this.prefixesTo(index + 1);
    return original + this.shiftBefore[index + 1]!;
  }

  /** Whether the original characters `[start, end)` are all still there, side by side, in the current text. */
  private keepsOriginal(start: number, end: number): boolean {
    if (start < 0 || end > this.original.length) return false;
    const index = this.changeAtOrBefore(end - 1);
    return index < 0 || this.changes[index]!.end <= start;
  }

  /** Line breaks of the original text before original offset `offset`. */
  private originalBreaksBelow(offset: number): number {
    if (this.originalBreaks === undefined && this.breakCounts++ < COUNTS_BEFORE_BREAK_LIST) {
      return countBreaks(this.original, 0, offset);
    }
    this.originalBreaks ??= breakOffsets(this.original);
    return countBelow(this.originalBreaks, offset);
  }

  /** The index, built once the draft has been scanned a few times, when the text is worth indexing. */
  private indexed(): SubstringIndex<Change> | undefined {
    if (this.index !== undefined) return this.index;
    const size = this.original.length;
    if (this.search === 'scanned') return undefined;
    if (this.search === 'auto') {
      if (size < INDEX_MIN_CHARS || size > INDEX_MAX_CHARS || this.scans++ < SCANS_BEFORE_INDEX)
        return undefined;
    }
    this.index = new SubstringIndex<Change>(this.original);
    this.changes.forEach((_change, index) => this.indexChange(index));
    return this.index;
  }

  /** Adds to the index the pieces of the current text that change `index` wrote or joined. */
  private indexChange(index: number): void {
    if (this.index === undefined) return;
    const start = this.changeStart(index);
    const change = this.changes[index]!;
    const reach = INDEX_GRAM_CHARS - 1;
    const from = Math.max(0, start - reach);
    const window = this.slice(from, start + change.text.length + reach);
    this.index.addChange(change, window, from - start, start - from, start - from + change.text.length);
  }

  /** {@link occurrences} through the index: every occurrence, overlapping ones too, or `undefined` to scan instead. */
  private findIndexed(index: SubstringIndex<Change>, needle: string): number[] | undefined {
    const candidates = index.candidates(needle, 64 + (this.length >>> 10));
    if (candidates === undefined) return undefined;
    const { gramAt, originals, writtenOwners, writtenOffsets } = candidates;
    const found: number[] = [];
    for (let entry = 0; entry < originals.length; entry++) {
      const gramStart = originals[entry]!;
      const start = gramStart - gramAt;
      // Where the changes left the original text alone, it is compared where it stands.
      if (this.keepsOriginal(start, start + needle.length)) {
        if (this.original.startsWith(needle, start)) found.push(this.currentOffsetOf(start)!);
      } else {
        const at = this.currentOffsetOf(gramStart);
        if (at !== undefined && this.holdsAt(at - gramAt, needle)) found.push(at - gramAt);
      }
    }
    for (let entry = 0; entry < writtenOwners.length; entry++) {
      const owner = writtenOwners[entry]!;
      const position = this.changeAtOrBefore(owner.start);
      // A change merged into a later one is gone; that one indexed what it wrote.
      if (this.changes[position] !== owner) continue;
      const start = this.changeStart(position) + writtenOffsets[entry]! - gramAt;
      if (this.holdsAt(start, needle)) found.push(start);
    }
    if (found.length < 2) return found;
    found.sort((left, right) => left - right);
    return found.filter((start, position) => position === 0 || start !== found[position - 1]);
  }

  /** Whether the current text holds `needle` at `start`. */
  private holdsAt(start: number, needle: string): boolean {
    return (
      start >= 0 &&
      start + needle.length <= this.length &&
      this.slice(start, start + needle.length) === needle
    );
  }

  /**
   * Replaces current `[start, end)` by `text`, merging it with the changes it overlaps or touches: their texts
   * around the range stay, and the merged change replaces the union of their original ranges.
   */
  private apply(start: number, end: number, text: string): void {
    const changes = this.changes;
    // `first`: the first change ending at or after `start`; `last`: the last one starting at or before `end`. The
    // ones between touch or overlap the range.
    const before = this.changeAtOrBeforeOffset(start);
    const first = before >= 0 && this.changeEnd(before) >= start ? before : before + 1;
    const last = this.changeAtOrBeforeOffset(end);
    const removed = this.slice(start, end);
    let delta = text.length - removed.length;
    let breaks = countBreaks(text) - countBreaks(removed);
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
    const change: Change = { start: originalStart, end: originalEnd, text: merged, delta, breaks };
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
    if (!gone) this.indexChange(first);
  }
}

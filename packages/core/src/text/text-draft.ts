import { BAD_REPLACEMENTS_MESSAGE } from '../errors.js';
import type { DecodedText } from './codec-types.js';
import { DraftChanges, type DraftChange } from './draft-changes.js';
import { normalizedOffsets } from './line-endings.js';
import { joinPieces, restorePieces } from './restore-line-endings.js';
import { INDEX_GRAM_CHARS, SubstringIndex } from './substring-index.js';
import type { TextReplacement } from './text-replacement.js';

/** A text this short is searched by scanning it: no index pays for itself. */
const INDEX_MIN_CHARS = 16 * 1024;
/**
 * A text longer than this is always searched by scanning: its index takes about 7 bytes a character (56 MB here), more
 * beyond it than a host expects a text edit to take.
 */
const INDEX_MAX_CHARS = 8 * 1024 * 1024;
/** Searches scanned before the index is built: one index costs about as much as a few scans. */
const SCANS_BEFORE_INDEX = 3;

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
 * A change costs its own size, never a pass over the whole text (the changes are kept as sorted replacements of the
 * original: `DraftChanges`), so a thousand edits of a file are a thousand small steps. The whole text is only built
 * when asked for ({@link text}); {@link occurrences} finds a string without it, through an index of the original
 * text and of what the changes wrote, once a draft is searched more than a few times.
 */
export class TextDraft {
  private readonly changes: DraftChanges;
  private readonly search: NonNullable<TextDraftOptions['search']>;
  private currentText: string | undefined;
  private currentRaw: string | undefined;
  private scans = 0;
  private index: SubstringIndex<DraftChange> | undefined;
  /** Whether {@link raw} is {@link text} whatever the changes: the original has no `\r`, and changes write none. */
  readonly rawIsText: boolean;

  constructor(
    readonly decoded: DecodedText,
    options: TextDraftOptions = {},
  ) {
    this.changes = new DraftChanges(decoded.text);
    this.search = options.search ?? 'auto';
    this.rawIsText = decoded.raw === decoded.text;
    this.currentText = decoded.text;
    this.currentRaw = decoded.raw;
  }

  /** The current text, `\n`-normalised (what the model sees). */
  get text(): string {
    this.currentText ??= this.changes.text();
    return this.currentText;
  }

  /** Length of the current {@link text}. */
  get length(): number {
    return this.changes.length;
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
    return this.changes.replacements();
  }

  /** The character code at `offset` of the current text (`NaN` outside it), as `String.prototype.charCodeAt`. */
  charCodeAt(offset: number): number {
    if (!(offset >= 0 && offset < this.length)) return Number.NaN;
    return this.currentText !== undefined
      ? this.currentText.charCodeAt(offset)
      : this.changes.charCodeAt(offset);
  }

  /** The characters `[start, end)` of the current text (clamped to it), without building the whole text. */
  slice(start: number, end: number): string {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    return this.currentText !== undefined ? this.currentText.slice(from, to) : this.changes.slice(from, to);
  }

  /** The 1-based line of the current text holding `offset` (a line starts after each `\n`). */
  lineNumberAt(offset: number): number {
    return this.changes.lineNumberAt(Math.max(0, Math.min(offset, this.length)));
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
    // stored from left to right, where the running sums of `DraftChanges` are still valid. Replacements that touch
    // are joined first: `DraftChanges` would merge them one by one, copying the merged text each time (a replace_all
    // of every run of a text made of runs copied the whole text once per run).
    let moved = 0;
    for (const { start, end, text } of joinTouching(changes)) {
      if (start === end && text === '') continue;
      this.currentText = undefined;
      this.currentRaw = undefined;
      const merged = this.changes.apply(start + moved, end + moved, text);
      if (merged !== undefined) this.indexChange(merged);
      moved += text.length - (end - start);
    }
  }

  /** The index, built once the draft has been scanned a few times, when the text is worth indexing. */
  private indexed(): SubstringIndex<DraftChange> | undefined {
    if (this.index !== undefined) return this.index;
    const size = this.changes.original.length;
    if (this.search === 'scanned') return undefined;
    if (this.search === 'auto') {
      if (size < INDEX_MIN_CHARS || size > INDEX_MAX_CHARS || this.scans++ < SCANS_BEFORE_INDEX)
        return undefined;
    }
    this.index = new SubstringIndex<DraftChange>(this.changes.original);
    for (const [change, start] of this.changes.withStarts()) this.indexChange(change, start);
    return this.index;
  }

  /** Adds to the index the pieces of the current text that `change` wrote or joined. */
  private indexChange(change: DraftChange, start = this.changes.startOf(change)): void {
    if (this.index === undefined || start === undefined) return;
    const reach = INDEX_GRAM_CHARS - 1;
    const from = Math.max(0, start - reach);
    const window = this.slice(from, start + change.text.length + reach);
    this.index.addChange(change, window, from - start, start - from, start - from + change.text.length);
  }

  /** {@link occurrences} through the index: every occurrence, overlapping ones too, or `undefined` to scan instead. */
  private findIndexed(index: SubstringIndex<DraftChange>, needle: string): number[] | undefined {
    const candidates = index.candidates(needle, 64 + (this.length >>> 10));
    if (candidates === undefined) return undefined;
    const { gramAt, originals, writtenOwners, writtenOffsets } = candidates;
    const { changes } = this;
    const found: number[] = [];
    for (let entry = 0; entry < originals.length; entry++) {
      const gramStart = originals[entry]!;
      const start = gramStart - gramAt;
      // Where the changes left the original text alone, it is compared where it stands.
      if (changes.keepsOriginal(start, start + needle.length)) {
        if (changes.original.startsWith(needle, start)) found.push(changes.currentOffsetOf(start)!);
      } else {
        const at = changes.currentOffsetOf(gramStart);
        if (at !== undefined && this.holdsAt(at - gramAt, needle)) found.push(at - gramAt);
      }
    }
    for (let entry = 0; entry < writtenOwners.length; entry++) {
      // A change merged into a later one is gone (no start); that one indexed what it wrote.
      const ownerStart = changes.startOf(writtenOwners[entry]!);
      if (ownerStart === undefined) continue;
      const start = ownerStart + writtenOffsets[entry]! - gramAt;
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
      this.changes.slice(start, start + needle.length) === needle
    );
  }
}

/** Sorted replacements with every run of touching ones (one's end is the next one's start) made one. */
function joinTouching(changes: readonly TextReplacement[]): readonly TextReplacement[] {
  if (changes.length < 2) return changes;
  const joined: TextReplacement[] = [];
  let run: TextReplacement[] = [];
  const flush = () => {
    if (run.length === 1) joined.push(run[0]!);
    else if (run.length > 1) {
      joined.push({
        start: run[0]!.start,
        end: run[run.length - 1]!.end,
        text: run.map((each) => each.text).join(''),
      });
    }
    run = [];
  };
  for (const change of changes) {
    if (run.length > 0 && run[run.length - 1]!.end !== change.start) flush();
    run.push(change);
  }
  flush();
  return joined;
}

import type { OpenFile } from '@kimi-tools/core/fs';
import type { DiffDisplayBlock } from '@kimi-tools/core';
import {
  buildDiffBlocks,
  lineSnippet,
  normalizeLineEndings,
  replacementLineSpans,
  SNIPPET_CONTEXT_LINES,
  DIFF_DISPLAY_MAX_BYTES,
  SNIPPET_GAP_LINE,
  SNIPPET_MAX_BYTES,
  UnencodableTextError,
  isElisionComment,
  type LineSnippet,
  type LoggedEdit,
} from '@kimi-tools/core/toolkit';
import { applyEdits } from '../match/apply-edits.js';
import { MAX_LISTED_MATCHES } from '../match/find-edit.js';
import type { EditFailure, EditMatch, EditOutcome, EditSpec } from '../match/types.js';
import { MAX_EDIT_GROWTH_CHARS, MAX_REPLACEMENTS } from '../limits.js';
import type { ReplacedRange } from './copy-with-windows.js';
import { breakBefore, mergeWindows, readRange, windowAround, type WindowRange } from './edit-windows.js';
import { countSeenOccurrences } from './count-seen.js';
import { scanOccurrences, type Occurrences } from './scan-occurrences.js';
import { encodeWindow } from './encode-window.js';
import { decodeIn, encodeIn, type StreamFormat } from './stream-format.js';
import type { StreamTuning } from './stream-tuning.js';
import { createTextCheck, type TextCheck } from './text-check.js';

/** A streamed edit ready to be approved and written. */
export interface StreamedPlan {
  ok: true;
  ranges: ReplacedRange[];
  /** The edit leaves every byte as it was (one line ending written for the same one): nothing to write. */
  unchanged: boolean;
  newSize: number;
  display: DiffDisplayBlock[];
  snippet: LineSnippet;
  outcome: EditOutcome;
  /** The edit as applied, at the file's line, for the session's edit log (replays). */
  applied: LoggedEdit[];
  /** The replaced and the written text of every window (each distinct piece once), for the elision check. */
  replacedText: string;
  writtenText: string;
  /** The elision comments of the written text that a window's old text already had (the check's `file`). */
  context: string;
}

/**
 * Why a streamed edit failed: one of the tool's edit failures, no exact match (`exact-only`), or bytes past the
 * sample the file's encoding cannot decode exactly, or a NUL character (`not-text`: the in-memory path refuses them,
 * or decodes the whole file in another encoding).
 */
export type StreamedFailure = {
  ok: false;
  failure: EditFailure | { kind: 'exact-only' } | { kind: 'not-text' };
};

type NeedleLevel = 'exact' | 'line-endings';

/** How the file is looked at. */
export interface StreamedFile {
  handle: OpenFile;
  size: number;
  format: StreamFormat;
  path: string;
  diffBudgetMs: number;
  tuning: StreamTuning;
  /** Checked between the chunks of every scan. */
  signal?: AbortSignal | undefined;
}

/**
 * The byte strings `old` may be stored as: as given, and, in a file whose dominant line ending is not `\n`, with its
 * `\n` breaks written in that ending (the `line-endings` level of a file edited with `\n` strings). None when the
 * encoding cannot store `old` (curly quotes in Latin-1): the file cannot hold it exactly.
 */
function needlesOf(
  old: string,
  format: StreamFormat,
  replaceAll: boolean,
): Array<{ bytes: Uint8Array; level: NeedleLevel }> {
  let exact: Uint8Array;
  try {
    exact = encodeIn(old, format.format);
  } catch (error) {
    if (error instanceof UnencodableTextError) return [];
    throw error;
  }
  const needles: Array<{ bytes: Uint8Array; level: NeedleLevel }> = [{ bytes: exact, level: 'exact' }];
  const ending = format.format.lineEnding;
  // `replace_all` matches exactly only, as in memory (docs/str-replace-file.md#matching).
  if (!replaceAll && ending !== '\n' && old.includes('\n') && !old.includes('\r')) {
    needles.push({ bytes: encodeIn(old.replaceAll('\n', ending), format.format), level: 'line-endings' });
  }
  return needles;
}

/** What the scans found: the occurrences of the first needle found, or that the file is not text. */
type Search =
  | { kind: 'found'; found: Occurrences; length: number; level: NeedleLevel; hasCr: boolean }
  | { kind: 'none' }
  | { kind: 'not-text' };

async function findOccurrences(file: StreamedFile, edit: EditSpec, mode: EditMatch): Promise<Search> {
  // The first scan reads the whole file and checks all of it is text; later scans need not.
  let check: TextCheck | undefined = createTextCheck(file.format.format);
  let hasCr = false;
  for (const needle of needlesOf(edit.old, file.format, edit.replace_all)) {
    const found: Occurrences = await scanOccurrences(file.handle, file.size, needle.bytes, {
      start: file.format.start,
      breaks: file.format.breaks,
      overlapping: !edit.replace_all,
      // `first` takes the first exact match; a looser level still has to be unique, as in memory.
      firstOnly: mode === 'first' && !edit.replace_all && needle.level === 'exact',
      keep: edit.replace_all ? MAX_REPLACEMENTS : MAX_LISTED_MATCHES,
      maxCount: edit.replace_all ? MAX_REPLACEMENTS : Number.POSITIVE_INFINITY,
      check,
      chunkBytes: file.tuning.chunkBytes,
      signal: file.signal,
    });
    if (!found.text) return { kind: 'not-text' };
    if (check !== undefined) hasCr = found.hasCr;
    check = undefined;
    if (found.count > 0)
      return { kind: 'found', found, length: needle.bytes.length, level: needle.level, hasCr };
  }
  return { kind: 'none' };
}

/**
 * The ambiguity the in-memory path finds in the text the model sees, where the byte search found one match: in a
 * file holding `\r`, `old` with a line break may also stand where the file has another line ending
 * (`a\nb` and `a\r\nb` are both `a\nb` to the model).
 */
async function seenAmbiguity(
  file: StreamedFile,
  edit: EditSpec,
  search: Extract<Search, { kind: 'found' }>,
): Promise<EditFailure | undefined> {
  const old = normalizeLineEndings(edit.old);
  if (!search.hasCr || !old.includes('\n')) return undefined;
  const seen = await countSeenOccurrences(file, old, MAX_LISTED_MATCHES);
  if (seen.count <= 1) return undefined;
  return { kind: 'ambiguous', lines: [...new Set(seen.lines)], count: seen.count };
}

/** One window after the edit: its old and new text, where it stands, and the edit's replacements in it. */
interface EditedWindow {
  range: WindowRange;
  oldText: string;
  newText: string;
  bytes: Uint8Array;
  oldBytes: Uint8Array;
  unchanged: boolean;
  applied: LoggedEdit[];
  replacements: Array<{ start: number; end: number; text: string }>;
  outcome: EditOutcome;
}

function decodesExactly(raw: string, bytes: Uint8Array, format: StreamFormat): boolean {
  try {
    return Buffer.from(encodeIn(raw, format.format)).equals(bytes);
  } catch (error) {
    if (error instanceof UnencodableTextError) return false;
    throw error;
  }
}

async function editWindow(
  file: StreamedFile,
  range: WindowRange,
  edit: EditSpec,
  mode: EditMatch,
): Promise<EditedWindow | EditedWindowFailure> {
  const bytes = await readRange(file.handle, range.start, range.end);
  const raw = decodeIn(bytes, file.format.format);
  // The kept bytes are found by the encoded length of the text before them: only a window that decodes exactly
  // (the whole-file check says it does; the file may have changed since) may be edited.
  if (!decodesExactly(raw, bytes, file.format)) return { kind: 'not-text' };
  const decoded = { raw, text: normalizeLineEndings(raw), format: { ...file.format.format, bom: false } };
  // A window cut inside a line (no line break within reach of the match) must not let a deletion take a line break
  // as if the match were a whole line: its cut edge is no line boundary.
  const edges = { startsLine: !range.cutStart, endsLine: !range.cutEnd };
  const result = applyEdits(decoded, [edit], { mode, edges });
  if (!result.ok) return result.failure;
  const taken = await breakTaken(file, range, bytes, edit, mode, result.text);
  // The whole window is deleted with the line break before it: nothing is written in their place.
  const {
    range: edited,
    oldBytes,
    written,
  } = taken === undefined
    ? await encodeWindow(file, range, bytes, decoded, result.replacements)
    : {
        range: { ...range, start: range.start - taken.length },
        oldBytes: taken.bytes,
        written: new Uint8Array(),
      };
  return {
    range: edited,
    oldText: decoded.text,
    newText: result.text,
    bytes: written,
    oldBytes,
    unchanged: oldBytes.equals(written),
    applied: result.applied.map((edit) => ({ ...edit, line: edit.line + range.firstLine - 1 })),
    replacements: result.replacements,
    outcome: result.edits[0] ?? { replacements: 0, matchedBy: 'exact' },
  };
}

/**
 * The line break before a window that ends the file, with the bytes it and the window hold, when the edit deleted
 * the whole window and the in-memory path would delete that break too: the window's last line has no final line
 * break, so deleting it as a whole line takes the break before it, which the window, starting at a line, does not
 * hold. Decided by applying the edit again to the window with the break in front.
 */
async function breakTaken(
  file: StreamedFile,
  range: WindowRange,
  bytes: Buffer,
  edit: EditSpec,
  mode: EditMatch,
  newText: string,
): Promise<{ length: number; bytes: Buffer } | undefined> {
  if (newText !== '' || range.end !== file.size || range.cutStart || range.start <= file.format.start)
    return undefined;
  const length = await breakBefore(file.handle, file.format, range.start);
  const withBreak = Buffer.concat([await readRange(file.handle, range.start - length, range.start), bytes]);
  const raw = decodeIn(withBreak, file.format.format);
  const decoded = { raw, text: normalizeLineEndings(raw), format: { ...file.format.format, bom: false } };
  const result = applyEdits(decoded, [edit], { mode, edges: { startsLine: false, endsLine: true } });
  return result.ok && result.text === '' ? { length, bytes: withBreak } : undefined;
}

/** A window's failure with the file's line numbers instead of the window's (its first line is `firstLine`). */
function atFileLines(failure: EditedWindowFailure, firstLine: number): EditedWindowFailure {
  const shift = firstLine - 1;
  switch (failure.kind) {
    case 'ambiguous':
      return { ...failure, lines: failure.lines.map((line) => line + shift) };
    case 'not-found':
      return failure.closest === undefined
        ? failure
        : { ...failure, closest: { ...failure.closest, line: failure.closest.line + shift } };
    default:
      // The others name no line (a window is edited without the session's log, so never `replaced`).
      return failure;
  }
}

type EditedWindowFailure = EditFailure | { kind: 'not-text' };

/** The last line a window's snippet would show: its last changed line and the context after it, within the window. */
function lastSnippetLine(window: EditedWindow, firstLine: number): number {
  const span = replacementLineSpans(window.newText, window.replacements).at(-1);
  const lines = countLines(window.newText) + (window.newText.endsWith('\n') ? 0 : 1);
  const lastChanged = span === undefined ? lines : span.from + Math.max(span.count, 1) - 1;
  return firstLine - 1 + Math.min(lines, lastChanged + SNIPPET_CONTEXT_LINES);
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * Plans one edit of a file too large for memory (docs/str-replace-file.md#files-too-large-for-memory): finds `old`
 * by streaming over the file's bytes (as given, then with the file's line ending), decides uniqueness, `first` or
 * `replace_all` as the in-memory path does, then applies the edit to a window of whole lines around each match, with
 * the same rules (deleted line breaks, line endings and encoding of `new`), and builds the diff and snippet of those
 * windows with the file's line numbers.
 */
export async function planStreamedEdit(
  file: StreamedFile,
  edit: EditSpec,
  mode: EditMatch,
): Promise<StreamedPlan | StreamedFailure> {
  if (edit.old.length === 0) return { ok: false, failure: { kind: 'empty-old' } };
  if (edit.old === edit.new) return { ok: false, failure: { kind: 'identical' } };
  const search = await findOccurrences(file, edit, mode);
  if (search.kind === 'not-text') return { ok: false, failure: { kind: 'not-text' } };
  if (search.kind === 'none') return { ok: false, failure: { kind: 'exact-only' } };
  const { found, length } = search;
  if (edit.replace_all && found.count > MAX_REPLACEMENTS) {
    return { ok: false, failure: { kind: 'too-many', limit: MAX_REPLACEMENTS } };
  }
  // As in memory: the exact level counts matches in the bytes, then in the text the model sees; the line-endings
  // level counts them in that text only (it holds at least those of the byte search).
  const mustBeUnique = !edit.replace_all && (mode === 'unique' || search.level !== 'exact');
  if (mustBeUnique && (search.level === 'line-endings' || found.count === 1)) {
    const seen = await seenAmbiguity(file, edit, search);
    if (seen !== undefined) return { ok: false, failure: seen };
  }
  if (mustBeUnique && found.count > 1) {
    return {
      ok: false,
      failure: { kind: 'ambiguous', lines: [...new Set(found.lines)], count: found.count },
    };
  }
  const growth =
    found.count * (normalizeLineEndings(edit.new).length - normalizeLineEndings(edit.old).length);
  if (growth > MAX_EDIT_GROWTH_CHARS) {
    return { ok: false, failure: { kind: 'too-large', limit: MAX_EDIT_GROWTH_CHARS } };
  }
  const ranges: WindowRange[] = [];
  for (const [index, start] of found.starts.entries()) {
    const line = found.lines[index] ?? 1;
    ranges.push(
      await windowAround(
        file.handle,
        file.size,
        file.format,
        { start, end: start + length, line },
        file.tuning,
      ),
    );
  }
  // Windows are edited one by one and only what the result needs is kept of each: the bytes that changed, the
  // display and snippet while they are within their budgets, and the first window for the elision check. Thousands
  // of `replace_all` windows then cost about their changed bytes, not their text three times over.
  const plan = new PlanBuilder(file);
  for (const range of mergeWindows(ranges)) {
    const edited = await editWindow(file, range, edit, edit.replace_all ? mode : 'first');
    if (!('range' in edited)) return { ok: false, failure: atFileLines(edited, range.firstLine) };
    plan.add(edited);
  }
  return plan.finish();
}

/** Bytes of a window's old and new content that are the same at the start and at the end, to be copied instead. */
function changedPart(old: Uint8Array, written: Uint8Array): { skip: number; keep: number } {
  const limit = Math.min(old.length, written.length);
  let skip = 0;
  while (skip < limit && old[skip] === written[skip]) skip++;
  let keep = 0;
  while (keep < limit - skip && old[old.length - 1 - keep] === written[written.length - 1 - keep]) keep++;
  return { skip, keep };
}

/** Gathers a streamed plan window by window (see `planStreamedEdit`). */
class PlanBuilder {
  private readonly ranges: ReplacedRange[] = [];
  private display: DiffDisplayBlock[] = [];
  private displayBytes = 0;
  private displayCut = false;
  private windows = 0;
  private snippet = '';
  /** The first line the snippet could not show, once it is full. */
  private snippetCutAt: number | undefined;
  private lastLine = 1;
  private first: EditedWindow | undefined;
  // What the elision check needs of every window, without keeping their text: the distinct replaced and written
  // pieces (one or two at the exact level), and the written elision comments some window already had.
  private readonly replacedPieces = new Set<string>();
  private readonly writtenPieces = new Set<string>();
  private readonly commentsHad = new Set<string>();
  private newSize: number;
  private lineShift = 0;
  private replacements = 0;
  private unchanged = true;

  constructor(private readonly file: StreamedFile) {
    this.newSize = file.size;
  }

  add(window: EditedWindow): void {
    const { range } = window;
    this.first ??= window;
    this.unchanged &&= window.unchanged;
    for (const replacement of window.replacements) {
      this.replacedPieces.add(window.oldText.slice(replacement.start, replacement.end));
      this.writtenPieces.add(replacement.text);
      for (const line of replacement.text.split('\n')) {
        const trimmed = line.trim();
        if (isElisionComment(trimmed) && window.oldText.includes(trimmed)) this.commentsHad.add(trimmed);
      }
    }
    this.replacements += window.outcome.replacements;
    this.newSize += window.bytes.length - (range.end - range.start);
    const { skip, keep } = changedPart(window.oldBytes, window.bytes);
    this.ranges.push({
      start: range.start + skip,
      end: range.end - keep,
      bytes: window.bytes.slice(skip, window.bytes.length - keep),
    });
    const newFirstLine = range.firstLine + this.lineShift;
    this.lineShift += countLines(window.newText) - countLines(window.oldText);
    this.addSnippet(window, newFirstLine);
    if (this.displayCut) return;
    const blocks = buildDiffBlocks(this.file.path, window.oldText, window.newText, {
      budgetMs: this.file.diffBudgetMs,
    });
    for (const block of blocks) {
      this.displayBytes += Buffer.byteLength(block.oldText) + Buffer.byteLength(block.newText);
      this.display.push({
        ...block,
        oldStart: block.isSummary ? block.oldStart : block.oldStart + range.firstLine - 1,
        newStart: block.isSummary ? block.newStart : block.newStart + newFirstLine - 1,
      });
    }
    if (this.displayBytes > DIFF_DISPLAY_MAX_BYTES) {
      this.displayCut = true;
      this.display = [];
    }
  }

  // The windows' snippets one after another, parted by the gap line, cut at SNIPPET_MAX_BYTES as `lineSnippet` cuts
  // one; once cut, only the last line the whole snippet would have shown is followed.
  private addSnippet(window: EditedWindow, firstLine: number): void {
    this.windows++;
    this.lastLine = lastSnippetLine(window, firstLine);
    if (this.snippetCutAt !== undefined) return;
    const gap = this.windows > 1 ? `${SNIPPET_GAP_LINE}\n` : '';
    const maxBytes = Math.max(0, SNIPPET_MAX_BYTES - Buffer.byteLength(this.snippet) - gap.length);
    const spans = replacementLineSpans(window.newText, window.replacements);
    const piece = lineSnippet(window.newText, spans, { firstLine, maxBytes });
    if (piece.output !== '') this.snippet += gap + piece.output;
    if (piece.unshown !== undefined) this.snippetCutAt = piece.unshown.from;
  }

  finish(): StreamedPlan {
    const first = this.first;
    const cutAt = this.snippetCutAt;
    const snippet: LineSnippet =
      cutAt === undefined
        ? { output: this.snippet }
        : { output: this.snippet, unshown: { from: cutAt, to: Math.max(cutAt, this.lastLine) } };
    return {
      ok: true,
      unchanged: this.unchanged,
      ranges: this.ranges,
      newSize: this.newSize,
      display: this.displayCut ? [streamedSummaryBlock(this.file.path, this.replacements)] : this.display,
      snippet,
      outcome: { replacements: this.replacements, matchedBy: first?.outcome.matchedBy ?? 'exact' },
      applied: first?.applied ?? [],
      replacedText: [...this.replacedPieces].join('\n'),
      writtenText: [...this.writtenPieces].join('\n'),
      context: [...this.commentsHad].join('\n'),
    };
  }
}

/**
 * The one block shown when the diffs of a streamed edit's windows are over {@link DIFF_DISPLAY_MAX_BYTES} together:
 * the file's line count is not known (it was never all read), so it says how many places changed.
 */
function streamedSummaryBlock(path: string, places: number): DiffDisplayBlock {
  return {
    type: 'diff',
    path,
    oldText: `(${places} places)`,
    newText: `(${places} places, modified)`,
    oldStart: 1,
    newStart: 1,
    isSummary: true,
  };
}

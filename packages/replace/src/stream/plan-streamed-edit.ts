import type { FileHandle } from 'node:fs/promises';
import type { DiffDisplayBlock } from '@kimi-tools/core';
import {
  buildDiffBlocks,
  encodeChange,
  lineSnippet,
  normalizeLineEndings,
  replacementLineSpans,
  SNIPPET_CONTEXT_LINES,
  SNIPPET_GAP_LINE,
  SNIPPET_MAX_BYTES,
  type LineSnippet,
  type LoggedEdit,
} from '@kimi-tools/core/toolkit';
import { applyEdits } from '../match/apply-edits.js';
import { MAX_LISTED_MATCHES } from '../match/find-edit.js';
import type { EditFailure, EditMatch, EditOutcome, EditSpec } from '../match/types.js';
import { MAX_EDIT_GROWTH_CHARS, MAX_REPLACEMENTS } from '../limits.js';
import type { ReplacedRange } from './copy-with-windows.js';
import { mergeWindows, readRange, windowAround, type WindowRange } from './edit-windows.js';
import { scanOccurrences, type Occurrences } from './scan-occurrences.js';
import { decodeIn, encodeIn, type StreamFormat } from './stream-format.js';

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
  /** The replaced and the written text, for the elision check. */
  replacedText: string;
  writtenText: string;
  /** The windows' old text (the elision check looks for a comment the file already had there). */
  context: string;
}

/** Why a streamed edit failed: one of the tool's edit failures, or no exact match (`exact-only`). */
export type StreamedFailure = { ok: false; failure: EditFailure | { kind: 'exact-only' } };

/** How the file is looked at. */
export interface StreamedFile {
  handle: FileHandle;
  size: number;
  format: StreamFormat;
  path: string;
  diffBudgetMs: number;
}

/**
 * The byte strings `old` may be stored as: as given, and, in a file whose dominant line ending is not `\n`, with its
 * `\n` breaks written in that ending (the `line-endings` level of a file edited with `\n` strings).
 */
function needlesOf(
  old: string,
  format: StreamFormat,
): Array<{ bytes: Uint8Array; level: 'exact' | 'line-endings' }> {
  const needles: Array<{ bytes: Uint8Array; level: 'exact' | 'line-endings' }> = [
    { bytes: encodeIn(old, format.format), level: 'exact' },
  ];
  const ending = format.format.lineEnding;
  if (ending !== '\n' && old.includes('\n') && !old.includes('\r')) {
    needles.push({ bytes: encodeIn(old.replaceAll('\n', ending), format.format), level: 'line-endings' });
  }
  return needles;
}

async function findOccurrences(file: StreamedFile, edit: EditSpec, mode: EditMatch) {
  for (const needle of needlesOf(edit.old, file.format)) {
    const found: Occurrences = await scanOccurrences(file.handle, file.size, needle.bytes, {
      start: file.format.start,
      breaks: file.format.breaks,
      overlapping: !edit.replace_all,
      firstOnly: mode === 'first' && !edit.replace_all,
      keep: edit.replace_all ? MAX_REPLACEMENTS : MAX_LISTED_MATCHES,
      maxCount: edit.replace_all ? MAX_REPLACEMENTS : Number.POSITIVE_INFINITY,
    });
    if (found.count > 0) return { found, length: needle.bytes.length };
  }
  return undefined;
}

/** One window after the edit: its old and new text, where it stands, and the edit's replacements in it. */
interface EditedWindow {
  range: WindowRange;
  oldText: string;
  newText: string;
  bytes: Uint8Array;
  unchanged: boolean;
  applied: LoggedEdit[];
  replacements: Array<{ start: number; end: number; text: string }>;
  outcome: EditOutcome;
}

async function editWindow(
  file: StreamedFile,
  range: WindowRange,
  edit: EditSpec,
  mode: EditMatch,
): Promise<EditedWindow | EditFailure> {
  const bytes = await readRange(file.handle, range.start, range.end);
  const raw = decodeIn(bytes, file.format.format);
  const decoded = { raw, text: normalizeLineEndings(raw), format: { ...file.format.format, bom: false } };
  const result = applyEdits(decoded, [edit], { mode });
  if (!result.ok) return result.failure;
  const written = encodeChange(decoded, bytes, result.replacements);
  return {
    range,
    oldText: decoded.text,
    newText: result.text,
    bytes: written,
    unchanged: bytes.equals(written),
    applied: result.applied.map((edit) => ({ ...edit, line: edit.line + range.firstLine - 1 })),
    replacements: result.replacements,
    outcome: result.edits[0] ?? { replacements: 0, matchedBy: 'exact' },
  };
}

/** The snippets of the windows, parted by the gap line, cut to {@link SNIPPET_MAX_BYTES} as `lineSnippet` cuts one. */
function joinSnippets(windows: readonly EditedWindow[], newFirstLines: readonly number[]): LineSnippet {
  let output = '';
  for (const [index, window] of windows.entries()) {
    const firstLine = newFirstLines[index] ?? 1;
    const gap = index > 0 ? `${SNIPPET_GAP_LINE}\n` : '';
    const maxBytes = Math.max(0, SNIPPET_MAX_BYTES - Buffer.byteLength(output) - gap.length);
    const spans = replacementLineSpans(window.newText, window.replacements);
    const piece = lineSnippet(window.newText, spans, { firstLine, maxBytes });
    if (piece.output !== '') output += gap + piece.output;
    if (piece.unshown !== undefined) {
      return { output, unshown: { from: piece.unshown.from, to: lastSnippetLine(windows, newFirstLines) } };
    }
  }
  return { output };
}

/** The last line the snippet of every window would show: the last changed line and its context, within the file. */
function lastSnippetLine(windows: readonly EditedWindow[], newFirstLines: readonly number[]): number {
  const last = windows.at(-1);
  if (last === undefined) return 1;
  const firstLine = newFirstLines.at(-1) ?? 1;
  const span = replacementLineSpans(last.newText, last.replacements).at(-1);
  const lines = countLines(last.newText) + (last.newText.endsWith('\n') ? 0 : 1);
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
  if (search === undefined) return { ok: false, failure: { kind: 'exact-only' } };
  const { found, length } = search;
  if (edit.replace_all && found.count > MAX_REPLACEMENTS) {
    return { ok: false, failure: { kind: 'too-many', limit: MAX_REPLACEMENTS } };
  }
  if (!edit.replace_all && mode === 'unique' && found.count > 1) {
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
      await windowAround(file.handle, file.size, file.format, { start, end: start + length, line }),
    );
  }
  const windows: EditedWindow[] = [];
  for (const range of mergeWindows(ranges)) {
    const windowMode = edit.replace_all ? mode : 'first';
    const edited = await editWindow(file, range, edit, windowMode);
    if (!('range' in edited)) return { ok: false, failure: edited };
    windows.push(edited);
  }
  let newSize = file.size;
  let lineShift = 0;
  const display: DiffDisplayBlock[] = [];
  const newFirstLines: number[] = [];
  let replacements = 0;
  for (const window of windows) {
    newSize += window.bytes.length - (window.range.end - window.range.start);
    const newFirstLine = window.range.firstLine + lineShift;
    newFirstLines.push(newFirstLine);
    for (const block of buildDiffBlocks(file.path, window.oldText, window.newText, {
      budgetMs: file.diffBudgetMs,
    })) {
      display.push({
        ...block,
        oldStart: block.oldStart + window.range.firstLine - 1,
        newStart: block.newStart + newFirstLine - 1,
      });
    }
    lineShift += countLines(window.newText) - countLines(window.oldText);
    replacements += window.outcome.replacements;
  }
  const first = windows[0];
  return {
    ok: true,
    unchanged: windows.every((window) => window.unchanged),
    ranges: windows.map((window) => ({
      start: window.range.start,
      end: window.range.end,
      bytes: window.bytes,
    })),
    newSize,
    display,
    snippet: joinSnippets(windows, newFirstLines),
    outcome: { replacements, matchedBy: first?.outcome.matchedBy ?? 'exact' },
    applied: first?.applied ?? [],
    replacedText: windows
      .flatMap((window) => window.replacements.map((r) => window.oldText.slice(r.start, r.end)))
      .join('\n'),
    writtenText: windows.flatMap((window) => window.replacements.map((r) => r.text)).join('\n'),
    context: windows.map((window) => window.oldText).join('\n'),
  };
}

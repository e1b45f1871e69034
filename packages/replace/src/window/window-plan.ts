import { toolOk, type DiffDisplayBlock, type ToolReturnValue } from '@kimi-tools/core';
import type { OpenFile } from '@kimi-tools/core/fs';
import {
  buildDiffBlocks,
  countLineBreaks,
  DIFF_DISPLAY_MAX_BYTES,
  encodeChange,
  lineSnippet,
  replacementLineSpans,
  SNIPPET_CONTEXT_LINES,
  SNIPPET_GAP_LINE,
  SNIPPET_MAX_BYTES,
  type LineSnippet,
  type LineSpan,
  type TextReplacement,
} from '@kimi-tools/core/toolkit';
import type { EditCall, EditRead, EditVerdict } from '../edit/edit-call.js';
import { writeEdit } from '../edit/write-edit.js';
import { appliedPlaces, type StrReplaceFileBrief } from '../errors.js';
import type { ApplyEditsResult } from '../match/apply-edits.js';
import { copyWithRanges, type ReplacedRange } from './copy-with-ranges.js';
import type { EditText, TextWindow } from './window-text.js';

/** A change ready to be approved and written. */
export interface WindowPlan {
  /** The file's new bytes and text, when it was read whole. */
  newBytes: Uint8Array | undefined;
  newText: string | undefined;
  /** The new file of one read in windows: the old one copied from `source` into `temp`, the changed bytes put in. */
  writeTo: (source: OpenFile, temp: OpenFile) => Promise<void>;
  newSize: number;
  /** The change leaves every byte as it was (one line ending written for the same one): nothing to write. */
  unchanged: boolean;
  /** The diff of the windows with the file's line numbers (the diff of a file read whole is core's to build). */
  display: DiffDisplayBlock[];
  snippet: LineSnippet;
}

/** A window's part of a change: its replacements (offsets of its own text), its new text and where that starts. */
interface WindowChange {
  window: TextWindow;
  replacements: readonly TextReplacement[];
  newText: string;
  /** The line its new text starts on in the changed file. */
  newFirstLine: number;
}

function applied(text: string, replacements: readonly TextReplacement[]): string {
  let result = '';
  let at = 0;
  for (const { start, end, text: written } of replacements) {
    result += text.slice(at, start) + written;
    at = end;
  }
  return result + text.slice(at);
}

/**
 * The change (replacements of the edited text, sorted and apart) split by window, with the lines of the changed file;
 * a whole file's new text is `newText`, the edits' own.
 * No replacement reaches a window's edge inside the file: a window takes in a line, or more bytes than any match may
 * take, beyond every match of its hit, so the bytes around a window are never part of a change, and the window is
 * encoded alone as the whole file would be. Throws when a replacement reaches outside the windows, which their reach
 * rules out.
 */
function windowChanges(
  text: EditText,
  replacements: readonly TextReplacement[],
  newText: string | undefined,
): WindowChange[] {
  if (newText !== undefined) {
    const [window] = text.windows;
    return window ? [{ window, replacements, newText, newFirstLine: 1 }] : [];
  }
  const changes: WindowChange[] = [];
  let next = 0;
  let lineShift = 0;
  for (const window of text.windows) {
    const local: TextReplacement[] = [];
    const end = window.at + window.text.length;
    for (; next < replacements.length && replacements[next]!.start < end; next++) {
      const { start, end: to, text: written } = replacements[next]!;
      if (start < window.at || to > end) break;
      local.push({ start: start - window.at, end: to - window.at, text: written });
    }
    if (local.length === 0) continue;
    const changed = applied(window.text, local);
    changes.push({
      window,
      replacements: local,
      newText: changed,
      newFirstLine: window.firstLine + lineShift,
    });
    lineShift += countLineBreaks(changed) - countLineBreaks(window.text);
  }
  if (next < replacements.length) throw new Error('An edit reached past the part of the file that was read.');
  return changes;
}

/** The last line a window's snippet would show: its last changed line and the context after it, within the window. */
function lastSnippetLine(change: WindowChange, spans: readonly LineSpan[]): number {
  const span = spans.at(-1);
  const lines = countLineBreaks(change.newText) + (change.newText.endsWith('\n') ? 0 : 1);
  const lastChanged = span === undefined ? lines : span.from + Math.max(span.count, 1) - 1;
  return change.newFirstLine - 1 + Math.min(lines, lastChanged + SNIPPET_CONTEXT_LINES);
}

/**
 * The snippets of pieces of a text one after another, parted by the gap line, cut at SNIPPET_MAX_BYTES as `lineSnippet`
 * cuts one; once cut, only the last line the whole snippet would have shown is followed. For a whole file (one piece)
 * it is `lineSnippet`'s.
 */
class SnippetBuilder {
  private output = '';
  private pieces = 0;
  private first: LineSnippet | undefined;
  private cutAt: number | undefined;
  private lastLine = () => 1;

  /**
   * `endsInsideLine`: the piece is of a window cut inside its last line, which goes on in the file; `lastLine`: the
   * last line the piece would show, asked only when a snippet of several pieces is cut.
   */
  add(
    text: string,
    spans: readonly LineSpan[],
    firstLine: number,
    endsInsideLine: boolean,
    lastLine: () => number,
  ): void {
    this.lastLine = lastLine;
    if (this.cutAt !== undefined) return;
    const gap = this.pieces++ > 0 ? `${SNIPPET_GAP_LINE}\n` : '';
    const maxBytes = Math.max(0, SNIPPET_MAX_BYTES - Buffer.byteLength(this.output) - gap.length);
    const piece = lineSnippet(text, spans, { firstLine, maxBytes, endsInsideLine });
    this.first ??= piece;
    if (piece.output !== '') this.output += gap + piece.output;
    if (piece.unshown !== undefined) this.cutAt = piece.unshown.from;
  }

  finish(): LineSnippet {
    if (this.pieces === 1 && this.first !== undefined) return this.first;
    const cutAt = this.cutAt;
    if (cutAt === undefined) return { output: this.output };
    return { output: this.output, unshown: { from: cutAt, to: Math.max(cutAt, this.lastLine()) } };
  }
}

/** The numbered lines around `lines` of the text as it is, window by window (where a replay found its text). */
function snippetAt(text: EditText, lines: readonly number[]): LineSnippet {
  const snippet = new SnippetBuilder();
  for (const window of text.windows) {
    const count = countLineBreaks(window.text) + 1;
    const spans = lines
      .filter((line) => line >= window.firstLine && line < window.firstLine + count)
      .map((line) => ({ from: line - window.firstLine + 1, count: 1 }));
    if (spans.length > 0)
      snippet.add(window.text, spans, window.firstLine, window.cutEnd, () => window.firstLine + count - 1);
  }
  return snippet.finish();
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

/**
 * The one block shown when the diffs of the windows are over {@link DIFF_DISPLAY_MAX_BYTES} together: the file's line
 * count is not known (it was never all read), so it says how many places changed.
 */
function summaryBlock(path: string, places: number): DiffDisplayBlock {
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

/**
 * Step 5 of an edit (docs/str-replace-file.md#files-read-in-windows): the change planned window by window — the new
 * bytes of a file read whole, or of each window only the bytes that change; the diff of the windows (while within its
 * budget) and the snippet of the changed lines, with the file's line numbers. Edits this session already applied, or
 * that leave every byte as it was, are answered with nothing written; any other change is then approved and written
 * (step 6).
 */
export async function planEdit(
  call: EditCall,
  read: EditRead,
  result: Extract<ApplyEditsResult, { ok: true }>,
  verdict: EditVerdict,
): Promise<ToolReturnValue<StrReplaceFileBrief>> {
  const { text } = read;
  const { file } = call;
  if (result.alreadyApplied.length > 0) {
    // Every edit is a replay of one this session applied (a mix is a failure): nothing to ask or write.
    const snippet = snippetAt(
      text,
      result.alreadyApplied.map((edit) => edit.line),
    );
    return toolOk({
      output: snippet.output,
      message: `File unchanged: the edit(s) were already applied by an earlier call in this session (${appliedPlaces(result.alreadyApplied)}). Nothing was written.`,
      extras: { replacements: 0, matchedBy: 'exact', edits: result.edits, alreadyApplied: true },
    });
  }
  const { replacements } = result;
  // A whole file's new text is the edits' own; a window's is built from its replacements.
  const newText = text.whole ? result.text : undefined;
  const snippet = new SnippetBuilder();
  const ranges: ReplacedRange[] = [];
  let display: DiffDisplayBlock[] = [];
  let displayBytes = 0;
  let newSize = file.size;
  const { real } = call.target;
  for (const part of windowChanges(text, replacements, newText)) {
    const { window, newFirstLine } = part;
    const spans = replacementLineSpans(part.newText, part.replacements);
    snippet.add(part.newText, spans, newFirstLine, window.cutEnd, () => lastSnippetLine(part, spans));
    if (text.format === undefined) continue;
    const decoded = { raw: window.raw, text: window.text, format: text.decoded.format };
    const written = encodeChange(decoded, window.bytes, part.replacements);
    newSize += written.length - window.bytes.length;
    const { skip, keep } = changedPart(window.bytes, written);
    if (skip + keep < Math.max(window.bytes.length, written.length)) {
      ranges.push({
        start: window.start + skip,
        end: window.end - keep,
        bytes: written.slice(skip, written.length - keep),
      });
    }
    if (displayBytes > DIFF_DISPLAY_MAX_BYTES) continue;
    for (const block of buildDiffBlocks(real, window.text, part.newText, {
      budgetMs: call.runtime.diffBudgetMs,
    })) {
      displayBytes += Buffer.byteLength(block.oldText) + Buffer.byteLength(block.newText);
      display.push({
        ...block,
        oldStart: block.isSummary ? block.oldStart : block.oldStart + window.firstLine - 1,
        newStart: block.isSummary ? block.newStart : block.newStart + newFirstLine - 1,
      });
    }
  }
  if (displayBytes > DIFF_DISPLAY_MAX_BYTES) display = [summaryBlock(real, replacements.length)];
  const newBytes = text.whole && encodeChange(text.decoded, text.whole, replacements);
  const unchanged =
    newBytes === undefined ? ranges.length === 0 : Buffer.compare(newBytes, text.whole!) === 0;
  const copy = { chunkBytes: file.tuning.chunkBytes, buffer: file.buffer, signal: call.signal };
  const plan: WindowPlan = {
    newBytes,
    newText,
    writeTo: (source, temp) => copyWithRanges(source, file.size, ranges, temp, copy),
    newSize: newBytes?.length ?? newSize,
    unchanged,
    display,
    snippet: snippet.finish(),
  };
  return writeEdit(call, read, result, plan, verdict);
}

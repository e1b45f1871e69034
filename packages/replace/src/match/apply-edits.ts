import { buildReplacement } from './build-replacement.js';
import { findClosestText } from './closest-text.js';
import { findEdit, type FoundSpan } from './find-edit.js';
import {
  isLineEnd,
  isLineStart,
  lineBreakLength,
  lineNumbersAt,
  normalizeLineBreaks,
} from './line-breaks.js';
import { carryQuoteStyle, hasCurlyQuotes, straightenQuotes } from './match-quotes.js';
import { reindent } from './match-whitespace.js';
import type {
  EditFailure,
  EditOutcome,
  EditSpec,
  LineBreak,
  MatchLevel,
  MatchMode,
  Replacement,
} from './types.js';

/** How {@link applyEdits} matches and writes. */
export interface ApplyEditsOptions {
  /** `unique` (default) refuses ambiguous edits; `first` takes the first match. */
  mode?: MatchMode;
  /** The file's dominant line break, used for the lines an edit writes. */
  lineBreak?: LineBreak;
  /** Whether a not-found error may quote the file's closest text (default true; false for files holding secrets). */
  quoteClosestText?: boolean;
}

/**
 * Every edit applied, or the first edit that failed (1-based `index`). On success `content` is the new raw text;
 * its first `unchangedPrefix` and last `unchangedSuffix` characters are the original's, untouched by any edit
 * (so a writer can reuse the original bytes there).
 */
export type ApplyEditsResult =
  | { ok: true; content: string; edits: EditOutcome[]; unchangedPrefix: number; unchangedSuffix: number }
  | { ok: false; index: number; failure: EditFailure };

/** The text `new` becomes at one match: re-indented and quote-styled like the file where the level calls for it. */
function replacementFor(content: string, span: FoundSpan, edit: EditSpec, level: MatchLevel): string {
  const segment = content.slice(span.start, span.end);
  let text = normalizeLineBreaks(edit.new);
  if (level === 'whitespace' && span.shift !== undefined) text = reindent(text, span.shift);
  const quotesLoosened = level === 'quotes' || (level === 'whitespace' && !hasCurlyQuotes(edit.old));
  if (quotesLoosened) text = carryQuoteStyle(segment, text);
  return text;
}

/** Whether deleting `[start, end)` should take a line break with it: the span is whole lines, without the break. */
function isWholeLines(content: string, start: number, end: number): boolean {
  if (start >= end) return false;
  const last = content.charCodeAt(end - 1);
  if (last === 10 || last === 13) return false;
  return isLineStart(content, start) && isLineEnd(content, end);
}

/** Length of the line break that ends just before `index` (0 when none). */
function breakLengthBefore(content: string, index: number): number {
  const before = content.charCodeAt(index - 1);
  if (before === 10) return content.charCodeAt(index - 2) === 13 ? 2 : 1;
  return before === 13 ? 1 : 0;
}

/**
 * A deleted last line has no break after it, so the break before it goes instead. When earlier deletions of
 * whole lines run right up to it (each took its own break), the break before that whole run goes, so that the
 * file does not gain a final line break it never had. Returns the deletion's new start (it may move the start
 * of the first deletion of the run instead).
 */
function takeBreakBefore(content: string, replacements: Replacement[], start: number): number {
  let first = replacements.length;
  let runStart = start;
  while (first > 0) {
    const previous = replacements[first - 1];
    if (previous === undefined || previous.end !== runStart || previous.text !== '') break;
    runStart = previous.start;
    first -= 1;
  }
  const limit = first > 0 ? (replacements[first - 1]?.end ?? 0) : 0;
  const length = breakLengthBefore(content, runStart);
  if (length === 0 || runStart - length < limit) return start;
  const head = replacements[first];
  if (head === undefined) return start - length;
  head.start -= length;
  return start;
}

/** Replacements for one edit's matches, in order, none overlapping. */
function replacementsFor(
  content: string,
  spans: readonly FoundSpan[],
  edit: EditSpec,
  level: MatchLevel,
  lineBreak: LineBreak,
): Replacement[] {
  const replacements: Replacement[] = [];
  for (const span of spans) {
    let { start, end } = span;
    let text: string;
    if (edit.new === '') {
      text = '';
      if (isWholeLines(content, start, end)) {
        const after = lineBreakLength(content, end);
        if (after > 0) {
          end += after;
        } else {
          start = takeBreakBefore(content, replacements, start);
        }
      }
    } else {
      const normalized = replacementFor(content, span, edit, level);
      text = buildReplacement(content.slice(start, end), normalized, lineBreak);
    }
    replacements.push({ start, end, text });
  }
  return replacements;
}

/** Splices sorted, non-overlapping replacements into `content`. */
export function spliceReplacements(content: string, replacements: readonly Replacement[]): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const replacement of replacements) {
    parts.push(content.slice(cursor, replacement.start), replacement.text);
    cursor = replacement.end;
  }
  parts.push(content.slice(cursor));
  return parts.join('');
}

/** Why one edit failed, with the details its error message needs. */
function failureOf(
  content: string,
  edit: EditSpec,
  result: ReturnType<typeof findEdit>,
  quoteClosestText: boolean,
): EditFailure {
  if (result.kind === 'ambiguous') {
    // Several matches on one line name the line once.
    const lines = [...new Set(lineNumbersAt(content, result.starts))];
    return { kind: 'ambiguous', lines, count: result.count };
  }
  if (!quoteClosestText) return { kind: 'not-found', closest: undefined };
  const shown = normalizeLineBreaks(content);
  const closest = findClosestText(
    straightenQuotes(shown),
    shown,
    straightenQuotes(normalizeLineBreaks(edit.old)),
  );
  return { kind: 'not-found', closest };
}

/**
 * Applies `edits` in order to `content` (decoded text with the file's own line breaks). Each edit sees the
 * result of the ones before it; the first failing edit stops everything and nothing is returned but the
 * failure. `new` is inserted literally. Bytes outside the replaced regions are never touched.
 */
export function applyEdits(
  content: string,
  edits: readonly EditSpec[],
  options: ApplyEditsOptions = {},
): ApplyEditsResult {
  const mode = options.mode ?? 'unique';
  const lineBreak = options.lineBreak ?? '\n';
  const outcomes: EditOutcome[] = [];
  let current = content;
  let unchangedPrefix = content.length;
  let unchangedSuffix = content.length;
  for (const [position, edit] of edits.entries()) {
    const index = position + 1;
    if (edit.old.length === 0) return { ok: false, index, failure: { kind: 'empty-old' } };
    if (edit.old === edit.new) return { ok: false, index, failure: { kind: 'identical' } };
    const found = findEdit(current, edit.old, mode, edit.replace_all);
    if (found.kind !== 'found') {
      return { ok: false, index, failure: failureOf(current, edit, found, options.quoteClosestText ?? true) };
    }
    const replacements = replacementsFor(current, found.spans, edit, found.level, lineBreak);
    const [first] = replacements;
    const last = replacements[replacements.length - 1];
    // Text before the first and after the last replacement is untouched, measured from each end.
    if (first !== undefined && last !== undefined) {
      unchangedPrefix = Math.min(unchangedPrefix, first.start);
      unchangedSuffix = Math.min(unchangedSuffix, current.length - last.end);
    }
    current = spliceReplacements(current, replacements);
    outcomes.push({ replacements: replacements.length, matchedBy: found.level });
  }
  // Both ends can only overlap when nothing changed; keep them within the shorter text.
  const shorter = Math.min(content.length, current.length);
  if (unchangedPrefix + unchangedSuffix > shorter) {
    unchangedPrefix = Math.min(unchangedPrefix, shorter);
    unchangedSuffix = shorter - unchangedPrefix;
  }
  return { ok: true, content: current, edits: outcomes, unchangedPrefix, unchangedSuffix };
}

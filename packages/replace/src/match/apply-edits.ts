import {
  normalizeLineEndings,
  TextDraft,
  type DecodedText,
  type LoggedEdit,
  type TextReplacement,
} from '@kimi-tools/core/toolkit';
import { findClosestText } from '@kimi-tools/core/toolkit';
import { findEdit, type FindResult, type FoundSpan } from './find-edit.js';
import { lineNumbersAt } from './line-numbers.js';
import { carryQuoteStyle, hasCurlyQuotes, straightenQuotes } from './match-quotes.js';
import { reindent } from './match-whitespace.js';
import { alreadyAppliedAt, isSameEdit, replacedRegion } from './replays.js';
import type { AlreadyApplied, EditFailure, EditMatch, EditOutcome, EditSpec, MatchLevel } from './types.js';
import { MAX_EDIT_GROWTH_CHARS, MAX_REPLACEMENTS } from '../limits.js';

/** How {@link applyEdits} matches. */
export interface ApplyEditsOptions {
  /** `unique` (default) refuses ambiguous edits; `first` takes the first match. */
  mode?: EditMatch;
  /** The edits this session already applied to the file (docs/str-replace-file.md#replays); none by default. */
  log?: readonly LoggedEdit[];
}

/**
 * Every edit applied, or the first edit that failed (1-based `index`). On success `text` is the new
 * `\n`-normalised text and `replacements` the change as replacements of the original text, ready for
 * `encodeChange` (which keeps every byte outside them).
 */
export type ApplyEditsResult =
  | {
      ok: true;
      text: string;
      replacements: TextReplacement[];
      edits: EditOutcome[];
      /** The edits as they were applied, for the session's edit log. */
      applied: LoggedEdit[];
      /** Edits an earlier call already applied (all of them, or none: a mix is a failure). */
      alreadyApplied: AlreadyApplied[];
    }
  | { ok: false; index: number; failure: EditFailure };

/** How one edit was found: the level, the level whose rules shape `new`, and what `new` goes through first. */
type Found = Extract<FindResult, { kind: 'found' }>;

/** The text `new` becomes at one match: re-indented and quote-styled like the file where the level calls for it. */
function replacementFor(text: TextDraft, span: FoundSpan, edit: EditSpec, found: Found): string {
  let replacement = normalizeLineEndings(edit.new);
  if (found.rewriteNew) replacement = found.rewriteNew(replacement);
  const level: MatchLevel = found.via ?? found.level;
  if (level === 'whitespace' && span.shift !== undefined) replacement = reindent(replacement, span.shift);
  const quotesLoosened = level === 'quotes' || (level === 'whitespace' && !hasCurlyQuotes(edit.old));
  if (quotesLoosened) replacement = carryQuoteStyle(text.slice(span.start, span.end), replacement);
  return replacement;
}

/** Whether deleting `[start, end)` should take a line break with it: the span is whole lines, without the break. */
function isWholeLines(text: TextDraft, start: number, end: number): boolean {
  if (start >= end || text.charCodeAt(end - 1) === 10) return false;
  const startsLine = start === 0 || text.charCodeAt(start - 1) === 10;
  const endsLine = end === text.length || text.charCodeAt(end) === 10;
  return startsLine && endsLine;
}

/**
 * A deleted last line has no break after it, so the break before it goes instead. When earlier deletions of
 * whole lines run right up to it (each took its own break), the break before that whole run goes, so that the
 * file does not gain a final line break it never had. Returns the deletion's new start (it may move the start
 * of the first deletion of the run instead).
 */
function takeBreakBefore(text: TextDraft, replacements: TextReplacement[], start: number): number {
  let first = replacements.length;
  let runStart = start;
  while (first > 0) {
    const previous = replacements[first - 1];
    if (previous === undefined || previous.end !== runStart || previous.text !== '') break;
    runStart = previous.start;
    first -= 1;
  }
  const limit = first > 0 ? (replacements[first - 1]?.end ?? 0) : 0;
  if (runStart === 0 || text.charCodeAt(runStart - 1) !== 10 || runStart - 1 < limit) return start;
  const head = replacements[first];
  if (head === undefined) return start - 1;
  head.start -= 1;
  return start;
}

/** Replacements for one edit's matches, in order, none overlapping. */
function replacementsFor(text: TextDraft, edit: EditSpec, found: Found): TextReplacement[] {
  const replacements: TextReplacement[] = [];
  for (const span of found.spans) {
    let { start, end } = span;
    let replacement = '';
    if (edit.new !== '') {
      replacement = replacementFor(text, span, edit, found);
    } else if (isWholeLines(text, start, end)) {
      if (text.charCodeAt(end) === 10) end += 1;
      else start = takeBreakBefore(text, replacements, start);
    }
    replacements.push({ start, end, text: replacement });
  }
  return replacements;
}

/** Why one edit failed, with the details its error message needs. */
function failureOf(
  decoded: DecodedText,
  text: string,
  edit: EditSpec,
  result: ReturnType<typeof findEdit>,
): EditFailure {
  if (result.kind === 'ambiguous' || result.kind === 'line-breaks-differ') {
    // Several matches on one line name the line once.
    const lines = [...new Set(lineNumbersAt(text, result.starts))];
    if (result.kind === 'ambiguous') return { kind: 'ambiguous', lines, count: result.count };
    return { kind: 'line-breaks-differ', lines, count: result.count, lineBreak: decoded.format.lineEnding };
  }
  const closest = findClosestText(
    straightenQuotes(text),
    text,
    straightenQuotes(normalizeLineEndings(edit.old)),
  );
  return { kind: 'not-found', closest };
}

function tooMany(index: number): ApplyEditsResult {
  return { ok: false, index, failure: { kind: 'too-many', limit: MAX_REPLACEMENTS } };
}

/**
 * Applies `edits` in order to a decoded file. Each edit sees the result of the ones before it; the first failing
 * edit stops everything and nothing is returned but the failure. `new` is inserted literally (its line breaks
 * become the file's when the change is encoded). All edits together make at most {@link MAX_REPLACEMENTS}
 * replacements and add at most {@link MAX_EDIT_GROWTH_CHARS} characters, checked before each edit is built.
 */
export function applyEdits(
  decoded: DecodedText,
  edits: readonly EditSpec[],
  options: ApplyEditsOptions = {},
): ApplyEditsResult {
  const mode = options.mode ?? 'unique';
  const log = options.log ?? [];
  const draft = new TextDraft(decoded);
  const outcomes: EditOutcome[] = [];
  const applied: LoggedEdit[] = [];
  const alreadyApplied: AlreadyApplied[] = [];
  // The budgets (limits.ts) are checked before each edit's result is built, so an edit over them costs no memory.
  let replaced = 0;
  let growth = 0;
  for (const [position, edit] of edits.entries()) {
    const index = position + 1;
    if (edit.old.length === 0) return { ok: false, index, failure: { kind: 'empty-old' } };
    if (edit.old === edit.new) return { ok: false, index, failure: { kind: 'identical' } };
    const found = findEdit(draft, edit.old, mode, edit.replace_all, MAX_REPLACEMENTS - replaced, edit.new);
    const old = normalizeLineEndings(edit.old);
    const replacement = normalizeLineEndings(edit.new);
    // Only an edit the log holds can be a replay: no other needs the whole text built.
    const replayedAt = log.some((entry) => isSameEdit(entry, old, replacement))
      ? alreadyAppliedAt(draft.text, old, replacement, found, log)
      : undefined;
    if (replayedAt !== undefined) {
      // A replay changes nothing: the text it would write is already there.
      alreadyApplied.push({ index, line: replayedAt });
      outcomes.push({ replacements: 0, matchedBy: 'exact' });
      continue;
    }
    if (found.kind === 'too-many') return tooMany(index);
    if (found.kind !== 'found') {
      const region =
        found.kind === 'not-found' && log.length > 0 ? replacedRegion(draft.text, old, log) : undefined;
      if (region !== undefined) return { ok: false, index, failure: { kind: 'replaced', ...region } };
      return {
        ok: false,
        index,
        failure: failureOf(decoded, draft.text, edit, found),
      };
    }
    if (replaced + found.spans.length > MAX_REPLACEMENTS) return tooMany(index);
    const replacements = replacementsFor(draft, edit, found);
    growth += replacements.reduce((sum, { start, end, text }) => sum + text.length - (end - start), 0);
    if (growth > MAX_EDIT_GROWTH_CHARS) {
      return { ok: false, index, failure: { kind: 'too-large', limit: MAX_EDIT_GROWTH_CHARS } };
    }
    replaced += replacements.length;
    const first = replacements[0];
    if (first !== undefined) {
      applied.push({ old, new: replacement, written: first.text, line: draft.lineNumberAt(first.start) });
    }
    draft.replace(replacements);
    outcomes.push({ replacements: replacements.length, matchedBy: found.level });
  }
  if (alreadyApplied.length > 0 && alreadyApplied.length < edits.length) {
    const firstApplied = alreadyApplied[0]?.index ?? 1;
    return { ok: false, index: firstApplied, failure: { kind: 'partly-applied', applied: alreadyApplied } };
  }
  return {
    ok: true,
    // Built when asked: a file read in windows is written from the replacements, never from this whole text.
    get text() {
      return draft.text;
    },
    replacements: draft.replacements,
    edits: outcomes,
    applied,
    alreadyApplied,
  };
}

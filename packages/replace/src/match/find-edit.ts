import {
  normalizeLineEndings,
  stripLineNumbers,
  stripNewLineNumbers,
  type TextDraft,
} from '@kimi-tools/core/toolkit';
import { iterateOccurrences } from './match-exact.js';
import { straightenQuotes } from './match-quotes.js';
import { iterateWhitespaceMatches, type IndentShift } from './match-whitespace.js';
import { indentRewritesFor, rewriteIndentation, type IndentRewrite } from './match-indentation.js';
import type { EditMatch, MatchLevel } from './types.js';

/** Lines of an ambiguous match listed in the error; more matches are counted and shown as `...`. */
export const MAX_LISTED_MATCHES = 20;

/** One place where an edit's `old` was found, in the draft's text, plus the indentation shift of a whitespace match. */
export interface FoundSpan {
  start: number;
  end: number;
  shift?: IndentShift;
}

/** The outcome of searching one `old` string. */
export type FindResult =
  | {
      kind: 'found';
      level: MatchLevel;
      spans: FoundSpan[];
      /** The level whose rules shape `new` when it differs from `level` (a rewritten `old` matched at `via`). */
      via?: MatchLevel;
      /** What `new` goes through first, when the level rewrote `old` (its indentation, its line-number prefixes). */
      rewriteNew?: (text: string) => string;
    }
  | { kind: 'not-found' }
  /**
   * `replace_all` found no exact match, but `old` is there once line breaks are read as `\n` (`starts` and `count` as
   * for `ambiguous`): the file's line breaks differ from `old`'s at those places.
   */
  | { kind: 'line-breaks-differ'; starts: number[]; count: number }
  /** `starts`: offsets of the first {@link MAX_LISTED_MATCHES} matches; `count`: all of them. */
  | { kind: 'ambiguous'; starts: number[]; count: number }
  /** `replace_all` found more matches than it may replace; they were not collected. */
  | { kind: 'too-many' };

/**
 * Runs one level's matches to a decision: every match for `replace_all`, the first in `first` mode, else the
 * single match, or ambiguous (counting all matches but keeping only the ones the error lists).
 */
function settle(
  level: MatchLevel,
  matches: Iterable<FoundSpan>,
  mode: EditMatch,
  replaceAll: boolean,
  maxSpans = Number.POSITIVE_INFINITY,
): FindResult | undefined {
  const kept: FoundSpan[] = [];
  let count = 0;
  // `first` (kimi-cli's behaviour) takes the first exact match; a looser level still has to be unique.
  const takeFirst = mode === 'first' && level === 'exact' && !replaceAll;
  for (const span of matches) {
    count += 1;
    // Stop before collecting more than may be replaced: millions of spans alone would exhaust the heap.
    if (replaceAll && count > maxSpans) return { kind: 'too-many' };
    if (replaceAll || kept.length < MAX_LISTED_MATCHES) kept.push(span);
    if (takeFirst) break;
  }
  if (count === 0) return undefined;
  if (replaceAll || takeFirst || count === 1) return { kind: 'found', level, spans: kept };
  return { kind: 'ambiguous', starts: kept.map((span) => span.start), count };
}

/** Occurrences as spans: overlapping ones too, except for `replace_all`, which replaces non-overlapping ones. */
function* occurrenceSpans(haystack: string, needle: string, replaceAll = false): Generator<FoundSpan> {
  for (const start of iterateOccurrences(haystack, needle, !replaceAll))
    yield { start, end: start + needle.length };
}

/** {@link occurrenceSpans} in the draft's current text, found without building it (`TextDraft.occurrences`). */
function* draftSpans(draft: TextDraft, needle: string, replaceAll: boolean): Generator<FoundSpan> {
  for (const start of draft.occurrences(needle, !replaceAll)) yield { start, end: start + needle.length };
}

function* whitespaceSpans(content: string, old: string): Generator<FoundSpan> {
  for (const match of iterateWhitespaceMatches(content, old)) {
    yield { start: match.start, end: match.end, shift: match.shift };
  }
}

/**
 * The `indentation` level: `old` rewritten in the file's style at every width it allows, the places all widths find
 * counted together, in the file's order. A place found at several widths counts once, with the first width that
 * found it; two places are ambiguous, whatever widths found them (a tab that reads as 2 spaces in one block and 4 in
 * another fits both).
 */
function findIndented(
  content: string,
  old: string,
  replacement: string,
  mode: EditMatch,
): FindResult | undefined {
  const rewrites = indentRewritesFor(content, old, replacement);
  let chosen: IndentRewrite | undefined;
  const places = mergedSpans(
    rewrites.map((rewrite) => whitespaceSpans(content, rewriteIndentation(old, rewrite))),
    (source) => (chosen = rewrites[source]),
  );
  const found = settle('indentation', places, mode, false);
  // Found means one place was yielded: `chosen` is the width that found it.
  if (found?.kind !== 'found' || chosen === undefined) return found;
  const rewrite = chosen;
  return { ...found, via: 'whitespace', rewriteNew: (text) => rewriteIndentation(text, rewrite) };
}

/**
 * Spans of several searches, each in the file's order, merged in that order; a place more than one search finds is
 * yielded once, `onYield` being told the first of them. Memory stays at one span per search, however many matches.
 */
function* mergedSpans(
  searches: ReadonlyArray<Iterator<FoundSpan>>,
  onYield: (source: number) => void,
): Generator<FoundSpan> {
  const heads = searches.map((search) => search.next());
  for (;;) {
    let first = -1;
    for (const [source, head] of heads.entries()) {
      if (head.done) continue;
      const lead = heads[first];
      if (lead === undefined || lead.done || head.value.start < lead.value.start) first = source;
    }
    const lead = heads[first];
    if (lead === undefined || lead.done) return;
    const span = lead.value;
    for (const [source, head] of heads.entries())
      if (!head.done && head.value.start === span.start) heads[source] = searches[source]!.next();
    onYield(first);
    yield span;
  }
}

/** A result found in the draft's raw text, moved to offsets of its `\n`-normalised text. */
function inText(draft: TextDraft, result: FindResult): FindResult {
  if (result.kind === 'not-found' || result.kind === 'too-many' || result.kind === 'line-breaks-differ')
    return result;
  if (result.kind === 'ambiguous') return { ...result, starts: draft.textOffsets(result.starts) };
  const ends = draft.textOffsets(result.spans.map((span) => span.end));
  const starts = draft.textOffsets(result.spans.map((span) => span.start));
  return {
    ...result,
    spans: result.spans.map((span, index) => ({ ...span, start: starts[index] ?? 0, end: ends[index] ?? 0 })),
  };
}

/**
 * The `exact` level: `old` as the file stores it, line endings included. An `old` without line breaks, or any `old`
 * in a file without `\r`, is looked for in the text the model sees (the same matches, and no raw text to build);
 * one with line breaks in the raw text (the draft as it would be written), its matches moved to text offsets. Also
 * says whether the raw text differs.
 */
function findExact(
  draft: TextDraft,
  old: string,
  mode: EditMatch,
  replaceAll: boolean,
  maxSpans: number,
): { result: FindResult | undefined; rawDiffers: boolean } {
  // Where the file has no '\r', its raw text is the text the model sees.
  if (!/[\r\n]/.test(old) || draft.rawIsText) {
    return {
      result: settle('exact', draftSpans(draft, old, replaceAll), mode, replaceAll, maxSpans),
      rawDiffers: false,
    };
  }
  const raw = draft.raw;
  const rawDiffers = raw.includes('\r');
  const result = settle('exact', occurrenceSpans(raw, old, replaceAll), mode, replaceAll, maxSpans);
  return { result: result && rawDiffers ? inText(draft, result) : result, rawDiffers };
}

/**
 * For `replace_all`, which replaces exact matches only and found none: where `old` is once line breaks are read as
 * `\n` (an LF `old` in a CRLF file), so that the error can say why the text the model reads holds it.
 */
function lineBreaksDiffer(draft: TextDraft, old: string, oldLines: string, rawDiffers: boolean): FindResult {
  if (oldLines === old && !rawDiffers) return { kind: 'not-found' };
  const found = settle('line-endings', occurrenceSpans(draft.text, oldLines), 'unique', false);
  if (found === undefined) return { kind: 'not-found' };
  if (found.kind === 'ambiguous')
    return { kind: 'line-breaks-differ', starts: found.starts, count: found.count };
  const starts = found.kind === 'found' ? found.spans.map((span) => span.start) : [];
  return { kind: 'line-breaks-differ', starts, count: starts.length };
}

/**
 * Finds `old` in the draft, trying `exact`, `line-endings`, `quotes` and `whitespace` in turn; the first level with
 * a match decides. `replace_all` uses only `exact` (where only line breaks keep `old` from matching, it says so). In `unique` mode more than one match (overlapping ones count)
 * is ambiguous; in `first` mode the first exact match is taken. Offsets are in `draft.text`. `replace_all` with more
 * than `maxSpans` matches is `too-many`.
 */
export function findEdit(
  draft: TextDraft,
  old: string,
  mode: EditMatch,
  replaceAll: boolean,
  maxSpans = Number.POSITIVE_INFINITY,
  replacement = '',
  numbered = true,
): FindResult {
  const oldLines = normalizeLineEndings(old);
  const exact = findExact(draft, old, mode, replaceAll, maxSpans);
  if (exact.result?.kind === 'found' && !replaceAll && mode === 'unique' && exact.rawDiffers) {
    // The model sees `\n` line breaks only: a match that is unique in the raw text but not in the text the model
    // sees (a mixed-ending file) is ambiguous to it.
    const seen = settle('exact', occurrenceSpans(draft.text, oldLines), mode, false);
    if (seen?.kind === 'ambiguous') return seen;
  }
  if (exact.result !== undefined) return exact.result;
  if (replaceAll) return lineBreaksDiffer(draft, old, oldLines, exact.rawDiffers);
  // The looser levels search the whole text (built here, once no exact match was found).
  const text = draft.text;

  // The exact level already searched the text itself when neither `old` nor the file needs normalising.
  if (oldLines !== old || exact.rawDiffers) {
    const found = settle('line-endings', occurrenceSpans(text, oldLines), mode, false);
    if (found !== undefined) return found;
  }

  const oldQuotes = straightenQuotes(oldLines);
  const straightened = straightenQuotes(text);
  if (oldQuotes !== oldLines || straightened !== text) {
    const found = settle('quotes', occurrenceSpans(straightened, oldQuotes), mode, false);
    if (found !== undefined) return found;
  }

  const found = settle('whitespace', whitespaceSpans(straightened, oldQuotes), mode, false);
  if (found !== undefined) return found;

  const indented = findIndented(straightened, oldQuotes, replacement, mode);
  if (indented !== undefined) return indented;

  // Copied from ReadFile's output with its prefixes: the rest of the ladder on the bare lines.
  const bare = numbered ? stripLineNumbers(oldLines) : undefined;
  if (bare === undefined || bare.trim() === '') return { kind: 'not-found' };
  const inner = findEdit(draft, bare, mode, false, maxSpans, stripNewLineNumbers(replacement), false);
  if (inner.kind !== 'found') return inner.kind === 'ambiguous' ? inner : { kind: 'not-found' };
  const innerRewrite = inner.rewriteNew;
  return {
    ...inner,
    level: 'line-numbers',
    via: inner.via ?? inner.level,
    rewriteNew: (text) => {
      const bareNew = stripNewLineNumbers(text);
      return innerRewrite ? innerRewrite(bareNew) : bareNew;
    },
  };
}

import { normalizeLineBreaks, rawOffsets } from './line-breaks.js';
import { iterateOccurrences } from './match-exact.js';
import { hasCurlyQuotes, straightenQuotes } from './match-quotes.js';
import { iterateWhitespaceMatches, type IndentShift } from './match-whitespace.js';
import type { MatchLevel, MatchMode } from './types.js';

/** Lines of an ambiguous match listed in the error; more matches are counted and shown as `...`. */
export const MAX_LISTED_MATCHES = 20;

/** One place where an edit's `old` was found: raw offsets, plus the indentation shift of a whitespace match. */
export interface FoundSpan {
  start: number;
  end: number;
  shift?: IndentShift;
}

/** The outcome of searching one `old` string. */
export type FindResult =
  | { kind: 'found'; level: MatchLevel; spans: FoundSpan[] }
  | { kind: 'not-found' }
  /** `starts`: raw offsets of the first {@link MAX_LISTED_MATCHES} matches; `count`: all of them. */
  | { kind: 'ambiguous'; starts: number[]; count: number };

/** The content in the forms the looser levels compare, computed only when a level needs them. */
class ContentViews {
  private lineBreaks: string | undefined;
  private quotes: string | undefined;

  constructor(readonly raw: string) {}

  /** `\n`-normalised (offsets map back with {@link rawOffsets}). */
  normalized(): string {
    this.lineBreaks ??= normalizeLineBreaks(this.raw);
    return this.lineBreaks;
  }

  /** `\n`-normalised with straight quotes (same offsets as {@link normalized}). */
  straightened(): string {
    this.quotes ??= straightenQuotes(this.normalized());
    return this.quotes;
  }
}

/**
 * Runs one level's matches to a decision: every match for `replace_all`, the first in `first` mode, else the
 * single match, or ambiguous (counting all matches but keeping only the ones the error lists).
 */
function settle(
  level: MatchLevel,
  matches: Iterable<FoundSpan>,
  mode: MatchMode,
  replaceAll: boolean,
): FindResult | undefined {
  const kept: FoundSpan[] = [];
  let count = 0;
  // `first` (kimi-cli's behaviour) takes the first exact match; a looser level still has to be unique.
  const takeFirst = mode === 'first' && level === 'exact' && !replaceAll;
  for (const span of matches) {
    count += 1;
    if (replaceAll || kept.length < MAX_LISTED_MATCHES) kept.push(span);
    if (takeFirst) break;
  }
  if (count === 0) return undefined;
  if (replaceAll || takeFirst || count === 1) return { kind: 'found', level, spans: kept };
  return { kind: 'ambiguous', starts: kept.map((span) => span.start), count };
}

/** Converts offsets found on a normalised view (`\n` line breaks, maybe straight quotes) to raw offsets. */
function toRaw(raw: string, normalized: string, result: FindResult): FindResult {
  if (raw.length === normalized.length) return result;
  if (result.kind === 'ambiguous') return { ...result, starts: rawOffsets(raw, result.starts) };
  if (result.kind === 'not-found') return result;
  const starts = rawOffsets(
    raw,
    result.spans.map((span) => span.start),
  );
  const ends = rawOffsets(
    raw,
    result.spans.map((span) => span.end),
  );
  return {
    ...result,
    spans: result.spans.map((span, index) => ({ ...span, start: starts[index] ?? 0, end: ends[index] ?? 0 })),
  };
}

/** Occurrences as spans: overlapping ones too, except for `replace_all`, which replaces non-overlapping ones. */
function* occurrenceSpans(haystack: string, needle: string, replaceAll = false): Generator<FoundSpan> {
  for (const start of iterateOccurrences(haystack, needle, !replaceAll))
    yield { start, end: start + needle.length };
}

function* whitespaceSpans(content: string, old: string): Generator<FoundSpan> {
  for (const match of iterateWhitespaceMatches(content, old)) {
    yield { start: match.start, end: match.end, shift: match.shift };
  }
}

/**
 * Finds `old` in `raw` (the file's decoded text with its own line breaks), trying `exact`, `line-endings`,
 * `quotes` and `whitespace` in turn; the first level with a match decides. `replace_all` uses only `exact`.
 * In `unique` mode more than one match (overlapping ones count) is ambiguous; in `first` mode the first exact match
 * is taken.
 * Returned offsets are in `raw`.
 */
export function findEdit(raw: string, old: string, mode: MatchMode, replaceAll: boolean): FindResult {
  const views = new ContentViews(raw);
  const oldLines = normalizeLineBreaks(old);
  const exact = settle('exact', occurrenceSpans(raw, old, replaceAll), mode, replaceAll);
  if (
    exact?.kind === 'found' &&
    !replaceAll &&
    mode === 'unique' &&
    /[\r\n]/.test(old) &&
    raw.includes('\r')
  ) {
    // The model sees `\n` line breaks only: a match that is unique in the raw text but not in the text the model
    // sees (a mixed-ending file) is ambiguous to it.
    const normalized = views.normalized();
    const seen = settle('exact', occurrenceSpans(normalized, oldLines), mode, false);
    if (seen?.kind === 'ambiguous') return toRaw(raw, normalized, seen);
  }
  if (exact !== undefined || replaceAll) return exact ?? { kind: 'not-found' };

  if (oldLines !== old || raw.includes('\r')) {
    const normalized = views.normalized();
    const found = settle('line-endings', occurrenceSpans(normalized, oldLines), mode, false);
    if (found !== undefined) return toRaw(raw, normalized, found);
  }

  const oldQuotes = straightenQuotes(oldLines);
  if (oldQuotes !== oldLines || hasCurlyQuotes(views.normalized())) {
    const straightened = views.straightened();
    const found = settle('quotes', occurrenceSpans(straightened, oldQuotes), mode, false);
    if (found !== undefined) return toRaw(raw, straightened, found);
  }

  const straightened = views.straightened();
  const found = settle('whitespace', whitespaceSpans(straightened, oldQuotes), mode, false);
  return found === undefined ? { kind: 'not-found' } : toRaw(raw, straightened, found);
}

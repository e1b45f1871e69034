import { findOccurrences } from './match-exact.js';
import { normalizeLineBreaks, rawOffsets } from './line-breaks.js';
import { hasCurlyQuotes, straightenQuotes } from './match-quotes.js';
import { findWhitespaceMatches, type IndentShift } from './match-whitespace.js';
import type { MatchLevel, MatchMode } from './types.js';

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
  | { kind: 'ambiguous'; starts: number[] };

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

/** Decides between found / ambiguous for one level's candidate matches. */
function settle(
  level: MatchLevel,
  spans: FoundSpan[],
  mode: MatchMode,
  replaceAll: boolean,
): FindResult | undefined {
  if (spans.length === 0) return undefined;
  if (replaceAll) return { kind: 'found', level, spans };
  const [first] = spans;
  if (mode === 'first' && first !== undefined) return { kind: 'found', level, spans: [first] };
  if (spans.length > 1) return { kind: 'ambiguous', starts: spans.map((span) => span.start) };
  return { kind: 'found', level, spans };
}

/** Converts spans found on a normalised view (`\n` line breaks, maybe straight quotes) to raw offsets. */
function toRaw(raw: string, normalized: string, spans: FoundSpan[]): FoundSpan[] {
  if (raw.length === normalized.length) return spans;
  const starts = rawOffsets(
    raw,
    spans.map((span) => span.start),
  );
  const ends = rawOffsets(
    raw,
    spans.map((span) => span.end),
  );
  return spans.map((span, index) => ({ ...span, start: starts[index] ?? 0, end: ends[index] ?? 0 }));
}

function occurrenceSpans(haystack: string, needle: string, limit: number): FoundSpan[] {
  return findOccurrences(haystack, needle, limit).map((start) => ({ start, end: start + needle.length }));
}

/**
 * Finds `old` in `raw` (the file's decoded text with its own line breaks), trying `exact`, `line-endings`,
 * `quotes` and `whitespace` in turn; the first level with a match decides. `replace_all` uses only `exact`.
 * In `unique` mode more than one match is ambiguous; in `first` mode the first match is taken.
 * Returned offsets are in `raw`; ambiguous starts are raw offsets too.
 */
export function findEdit(raw: string, old: string, mode: MatchMode, replaceAll: boolean): FindResult {
  // Enough matches to decide: all of them when every one is replaced or reported, else the first.
  const limit = mode === 'first' && !replaceAll ? 1 : Infinity;
  const exact = settle('exact', occurrenceSpans(raw, old, limit), mode, replaceAll);
  if (exact !== undefined || replaceAll) return exact ?? { kind: 'not-found' };

  const views = new ContentViews(raw);
  const oldLines = normalizeLineBreaks(old);
  if (oldLines !== old || raw.includes('\r')) {
    const normalized = views.normalized();
    const found = settle('line-endings', occurrenceSpans(normalized, oldLines, limit), mode, false);
    if (found !== undefined) return rawResult(raw, normalized, found);
  }

  const oldQuotes = straightenQuotes(oldLines);
  if (oldQuotes !== oldLines || hasCurlyQuotes(views.normalized())) {
    const straightened = views.straightened();
    const found = settle('quotes', occurrenceSpans(straightened, oldQuotes, limit), mode, false);
    if (found !== undefined) return rawResult(raw, straightened, found);
  }

  const straightened = views.straightened();
  const whitespace = findWhitespaceMatches(straightened, oldQuotes, limit).map((match): FoundSpan => ({
    start: match.start,
    end: match.end,
    shift: match.shift,
  }));
  const found = settle('whitespace', whitespace, mode, false);
  if (found !== undefined) return rawResult(raw, straightened, found);
  return { kind: 'not-found' };
}

function rawResult(raw: string, normalized: string, result: FindResult): FindResult {
  if (result.kind === 'found') return { ...result, spans: toRaw(raw, normalized, result.spans) };
  if (result.kind === 'ambiguous') {
    return {
      kind: 'ambiguous',
      starts: raw.length === normalized.length ? result.starts : rawOffsets(raw, result.starts),
    };
  }
  return result;
}

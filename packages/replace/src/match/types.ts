import type { ClosestText, LineEnding } from '@kimi-tools/core/toolkit';
/** How an edit's `old` string was found, from strictest to loosest. */
export type MatchLevel = 'exact' | 'line-endings' | 'quotes' | 'whitespace' | 'indentation' | 'line-numbers';

/** The matching levels in the order they are tried. */
export const MATCH_LEVELS: readonly MatchLevel[] = [
  'exact',
  'line-endings',
  'quotes',
  'whitespace',
  'indentation',
  'line-numbers',
];

/** One edit as the model gave it. */
export interface EditSpec {
  old: string;
  new: string;
  replace_all: boolean;
}

/** StrReplaceFile's matching: `unique` refuses an ambiguous edit; `first` takes the first match (kimi-cli's behaviour). */
export type EditMatch = 'unique' | 'first';

/** Why one edit could not be applied. Ambiguous `lines` are capped (see `MAX_LISTED_MATCHES`), `count` is not. */
export type EditFailure =
  | { kind: 'empty-old' }
  | { kind: 'identical' }
  | { kind: 'not-found'; closest: ClosestText | undefined }
  /** `lines`: 1-based lines of the first matches listed; `count`: all matches. */
  | { kind: 'ambiguous'; lines: number[]; count: number }
  /**
   * `replace_all` (exact matches only) found `old` only with line breaks read as `\n`, at `lines` (as `ambiguous`);
   * `lineBreak`: the file's own (its most common one).
   */
  | { kind: 'line-breaks-differ'; lines: number[]; count: number; lineBreak: LineEnding }
  /** More replacements than the call's budget (`limit`, counted over all edits). */
  | { kind: 'too-many'; limit: number }
  /** The edits would add more than `limit` characters to the text. */
  | { kind: 'too-large'; limit: number }
  /** `old` is text an earlier edit of this session replaced; `excerpt`: the numbered lines there now. */
  | { kind: 'replaced'; from: number; to: number; excerpt: string }
  /** Some edits of the list were applied by an earlier call (1-based `index`, and the `line` they are at), others not. */
  | { kind: 'partly-applied'; applied: AlreadyApplied[] };

/** An edit of the list that an earlier call of this session already applied, and where its text is now. */
export interface AlreadyApplied {
  index: number;
  line: number;
}

/** What one successfully applied edit did. */
export interface EditOutcome {
  replacements: number;
  matchedBy: MatchLevel;
}

import {
  emitJavaScriptRegex,
  hasTextStart,
  LineTerminatorLiteralError,
  matchesEmptyAnywhere,
  type JavaScriptRegex,
} from './emit-javascript-regex.js';
import { parseRustRegex } from './parse-rust-regex.js';
import type { PatternSpan, RegexFlags } from './regex-ast.js';
import { MULTILINE_ADVICE } from '../ripgrep-advice.js';
import { shownPatternRow, shownSpan } from '../shown-pattern-row.js';

/** A Grep pattern as the portable search runs it. */
export interface PortablePattern {
  readonly regex: JavaScriptRegex;
  /** The pattern as ripgrep finds a matched line's column, where that differs (a `\A` searched line by line). */
  readonly columnRegex?: JavaScriptRegex;
  /** It matches nothing without any assertion: an empty match also falls between the bytes of a character. */
  readonly emptyAnywhere: boolean;
}

/** A Grep pattern as the portable search runs it, or the error output that refuses it (docs/grep.md). */
export type PatternTranslation = { ok: true; pattern: PortablePattern } | { ok: false; error: string };

/** The rule ripgrep draws around a pattern of several lines in its errors. */
const RULE = '~'.repeat(79);

/**
 * The error text for a pattern refused at `span`, laid out as ripgrep lays out its parse errors (and as Grep shows
 * them: the pattern as written, each line as a line of a file is shown, marks under the place; a pattern of several
 * lines numbered).
 */
export function regexErrorText(pattern: string, span: PatternSpan | null, message: string): string {
  const lines = pattern.split('\n');
  const rows: string[] = [];
  const width = String(lines.length).length;
  let lineStart = 0;
  lines.forEach((line, index) => {
    const prefix = lines.length === 1 ? '    ' : `${String(index + 1).padStart(width)}: `;
    const row = shownPatternRow(line);
    rows.push(`${prefix}${row.text}`);
    const length = row.columns.length - 1;
    const from = span === null ? -1 : span.start - lineStart;
    if (span !== null && from >= 0 && from <= length) {
      const to = Math.max(from + 1, Math.min(span.end - lineStart, length + 1));
      const shown = shownSpan(row, from, to);
      rows.push(`${' '.repeat(prefix.length + shown.from)}${'^'.repeat(shown.to - shown.from)}`);
    }
    lineStart += length + 1;
  });
  const body = lines.length === 1 ? rows : [RULE, ...rows, RULE];
  return ['regex parse error:', ...body, `error: ${message}`].join('\n');
}

/**
 * Translates a ripgrep pattern for the portable search, with the flags Grep gives ripgrep: `-i` (`caseInsensitive`),
 * `--multiline --multiline-dotall` (`multiline`), `--crlf`, and ripgrep's own multi-line `^`/`$`.
 */
export function translatePattern(
  pattern: string,
  options: { caseInsensitive: boolean; multiline: boolean },
): PatternTranslation {
  const flags: RegexFlags = {
    caseInsensitive: options.caseInsensitive,
    multiLine: true,
    dotAll: options.multiline,
    crlf: true,
    swapGreed: false,
    unicode: true,
    verbose: false,
  };
  const parsed = parseRustRegex(pattern, flags);
  if (!parsed.ok)
    return { ok: false, error: regexErrorText(pattern, parsed.error.span, parsed.error.message) };
  let regex: JavaScriptRegex;
  const lineMode = !options.multiline;
  try {
    regex = emitJavaScriptRegex(parsed.node, { lineMode });
  } catch (error) {
    if (!(error instanceof LineTerminatorLiteralError)) throw error;
    return { ok: false, error: `${error.message}\n\n${MULTILINE_ADVICE}` };
  }
  try {
    new RegExp(regex.source, regex.flags);
  } catch (error) {
    // What the translation did not foresee: JavaScript's own words, under the whole pattern.
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: regexErrorText(pattern, { start: 0, end: Array.from(pattern).length }, message),
    };
  }
  const columnRegex =
    lineMode && hasTextStart(parsed.node)
      ? emitJavaScriptRegex(parsed.node, { lineMode, textStartOfBuffer: true })
      : undefined;
  return {
    ok: true,
    pattern: {
      regex,
      ...(columnRegex ? { columnRegex } : {}),
      emptyAnywhere: matchesEmptyAnywhere(parsed.node),
    },
  };
}

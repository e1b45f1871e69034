/**
 * How loosely a chunk's lines are compared with the file's, tried in this order; a looser level is tried only where
 * the stricter ones found nothing (codex's order, docs/apply-patch.md#finding-each-chunk).
 */
export const LINE_LEVELS = ['exact', 'trailing-whitespace', 'whitespace', 'punctuation'] as const;

/** One of {@link LINE_LEVELS}. */
export type LineLevel = (typeof LINE_LEVELS)[number];

/** Typographic characters read as their ASCII forms at the `punctuation` level. */
const DASHES = /[\u2010-\u2015\u2212]/g;
const SINGLE_QUOTES = /[\u2018-\u201b]/g;
const DOUBLE_QUOTES = /[\u201c-\u201f]/g;
const SPACES = /[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;

/** A line as the level compares it. */
export const normalizeLine: Readonly<Record<LineLevel, (line: string) => string>> = {
  exact: (line) => line,
  'trailing-whitespace': (line) => line.trimEnd(),
  whitespace: (line) => line.trim(),
  punctuation: (line) =>
    line
      .replace(DASHES, '-')
      .replace(SINGLE_QUOTES, "'")
      .replace(DOUBLE_QUOTES, '"')
      .replace(SPACES, ' ')
      .trim(),
};

/** How the result names what a looser level normalised (`Chunk 2 of a.ts matched after normalising {words}.`). */
export const LEVEL_WORDS: Readonly<Record<Exclude<LineLevel, 'exact'>, string>> = {
  'trailing-whitespace': 'trailing whitespace',
  whitespace: 'leading and trailing whitespace',
  punctuation: 'whitespace and typographic punctuation',
};

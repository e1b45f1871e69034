import { cutMiddle } from './cut-middle.js';

/**
 * Characters that would let a file name rewrite what a user or a model reads: C0 and C1 control characters (a newline
 * splits one entry into two, `ESC [2K` erases a terminal line), DEL, the line and paragraph separators, and Unicode's
 * bidirectional controls (an override can make `txt.exe` read as `exe.txt`).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** What is escaped between the quotes: the unsafe characters, and the quote and backslash the escapes use. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"\\]/g;

/** A quote at the start of the text or of one of its `/`-separated components: it would read as the quoted form. */
const LEADING_QUOTE = /(?:^|\/)"/;

/**
 * White space at either end of the text (what `trim()` removes): a reader, a model copying the name, or a patch
 * header read trimmed would lose it, and name another file. Between quotes it stays.
 */
const EDGE_SPACE = /^\s|\s$/;

// `\b` and `\f` are left to `\u`: a model reads `\b` as a regex word boundary more readily than as a backspace.
const NAMED: Readonly<Record<string, string>> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '"': '\\"',
  '\\': '\\\\',
};

function escaped(character: string): string {
  return NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Whether `text` holds a character {@link escapeForDisplay} escapes because it could rewrite what is read. */
export function hasUnsafeCharacter(text: string): boolean {
  return UNSAFE.test(text);
}

/**
 * `text` (usually a path) as a user or a model is shown it (docs/paths.md#how-paths-are-shown). Text holding an unsafe
 * character, starting a component with `"`, or starting or ending with white space, is shown whole between double
 * quotes with JSON's escapes inside (`\n`, `\r`, `\t`, `\"`, `\\`, else `\u` and four hex digits), so it stays on one
 * line, keeps its ends and no plain name reads the same; any other text, spaces inside, quotes and backslashes
 * included, comes back unchanged. `readShownPath` reads it back.
 */
export function escapeForDisplay(text: string): string {
  if (!UNSAFE.test(text) && !LEADING_QUOTE.test(text) && !EDGE_SPACE.test(text)) return text;
  return `"${text.replace(ESCAPED, escaped)}"`;
}

/** Longest path shown whole (no real path is longer: PATH_MAX is 4,096 bytes); a longer one keeps its two ends. */
export const SHOWN_PATH_MAX_CHARS = 4_096;

/** Text shown to a user or a model, escaped with {@link escapeForDisplay} and cut in the middle past `maxChars`. */
export function boundedForDisplay(text: string, maxChars: number): string {
  return escapeForDisplay(cutMiddle(text, maxChars));
}

/** A path as shown in a message: escaped, and at most {@link SHOWN_PATH_MAX_CHARS} characters before escaping. */
export function shownPath(path: string): string {
  return boundedForDisplay(path, SHOWN_PATH_MAX_CHARS);
}

/** A path quoted for a message or a description: `` `{path}` ``, shown with {@link shownPath}. */
export function quotedPath(path: string): string {
  return `\`${shownPath(path)}\``;
}

import { showControlCharacters } from './control-pictures.js';
import { cutMiddle } from './cut-middle.js';

/**
 * Characters that would let a file name rewrite what a user or a model reads: C0 and C1 control characters (a newline
 * splits one entry into two, `ESC [2K` erases a terminal line), DEL, the line and paragraph separators, and Unicode's
 * bidirectional controls (an override can make `txt.exe` read as `exe.txt`).
 */
const C0_AND_DEL = '\\u0000-\\u001f\\u007f';
/** The unsafe characters past C0 and DEL: C1 controls, separators, bidirectional controls. No picture exists for them. */
const BEYOND_C0 = '\\u0080-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const UNSAFE = new RegExp(`[${C0_AND_DEL}${BEYOND_C0}]`);

/**
 * A lone surrogate: a high one with no low one after it, or a low one with no high one before it (a pair, an emoji,
 * is one character and stays as it is). A name holds one for each byte that is not UTF-8 (core's `nameFromBytes`);
 * printed raw it would read as U+FFFD, like every other such byte and like a real U+FFFD.
 */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/**
 * What is escaped between the quotes: the unsafe characters, lone surrogates, and the quote and backslash the escapes
 * use.
 */
const ESCAPED = new RegExp(`[${C0_AND_DEL}${BEYOND_C0}"\\\\]|${LONE_SURROGATE}`, 'g');
const UNSAFE_BEYOND_C0 = new RegExp(`[${BEYOND_C0}]`, 'g');

/**
 * When a name is shown quoted: it holds an unsafe character or a lone surrogate, it starts a `/`-separated component
 * with `"` (it would read as the quoted form), or it starts or ends with white space (what `trim()` removes: a reader,
 * a model copying the name, or a patch header read trimmed would lose it, and name another file; between quotes it
 * stays). One expression, so a plain name costs a single test.
 */
const QUOTED_WHEN = `${UNSAFE.source}|${LONE_SURROGATE}|(?:^|/)"|^\\s|\\s$`;
const NEEDS_QUOTES = new RegExp(QUOTED_WHEN);

/**
 * What else makes a name shown quoted in one kind of line: the separators the line puts after or between its names
 * (docs/paths.md#names-in-a-line). Made once, where the line's format is defined, with {@link nameSeparators}.
 */
export interface NameSeparators {
  /** The one test of {@link escapeForDisplay}: the rules of every name, or a separator of the line. */
  readonly needsQuotes: RegExp;
}

/** A literal separator as a regular expression's source. */
function literal(separator: string): string {
  return separator.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * The separators of a line format (`' -> '` between two names, `': '` after a name and before its sentence, `', '`
 * between the names of a list; a regular expression for a separator that is a pattern, such as Grep's `-{line}-`):
 * a name holding one is shown quoted in such a line, so a reader splits the line at the first separator outside
 * quotes.
 */
export function nameSeparators(...separators: readonly (string | RegExp)[]): NameSeparators {
  const sources = separators.map((separator) =>
    typeof separator === 'string' ? literal(separator) : separator.source,
  );
  return { needsQuotes: new RegExp([QUOTED_WHEN, ...sources].join('|')) };
}

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

/**
 * A line of a file as a user reads it in a terminal (an approval's diff): the C0 controls but tab, and DEL, as their
 * pictures (`showControlCharacters`: ESC `␛`, CR `␍`), and the other unsafe characters, which have none, as `\u`
 * escapes (`\u009b`, a C1 control a terminal may read as ESC `[`; `\u202e`, which reorders what follows; `\u2028`,
 * which breaks the line). Nothing in it can then erase, rewrite or reorder what is shown around it.
 */
export function showUnsafeCharacters(line: string): string {
  return showControlCharacters(line).replace(UNSAFE_BEYOND_C0, escaped);
}

/** Whether `text` holds a character {@link escapeForDisplay} escapes because it could rewrite what is read. */
export function hasUnsafeCharacter(text: string): boolean {
  return UNSAFE.test(text);
}

/**
 * `text` (usually a path) as a user or a model is shown it (docs/paths.md#how-paths-are-shown). Text holding an unsafe
 * character or a lone surrogate (a byte of a name that is not UTF-8, shown `\udcff`), starting a component with `"`,
 * or starting or ending with white space, is shown whole between double quotes with JSON's escapes inside (`\n`,
 * `\r`, `\t`, `\"`, `\\`, else `\u` and four hex digits), so it stays on one line, keeps its ends and no plain name
 * reads the same; so is text holding one of `separators`, the separators of the line it is shown in. Any other text,
 * spaces inside, quotes and backslashes included, comes back unchanged. `readShownPath` reads it back.
 */
export function escapeForDisplay(text: string, separators?: NameSeparators): string {
  if (!(separators?.needsQuotes ?? NEEDS_QUOTES).test(text)) return text;
  return `"${text.replace(ESCAPED, escaped)}"`;
}

/**
 * Longest path shown whole, and taken as input: the longest any system takes (Windows' extended-length paths, 32,767
 * UTF-16 units; Linux takes 4,096 bytes, macOS 1,024). A path is what the model must give back, so every path that can
 * name a file is shown whole; a longer one names none (it is refused as input), and keeps only its two ends.
 */
export const SHOWN_PATH_MAX_CHARS = 32_767;

/** Text shown to a user or a model, escaped with {@link escapeForDisplay} and cut in the middle past `maxChars`. */
export function boundedForDisplay(text: string, maxChars: number, separators?: NameSeparators): string {
  return escapeForDisplay(cutMiddle(text, maxChars), separators);
}

/**
 * A path as shown in a message: escaped (also quoted when it holds one of `separators`, those of the line it is in),
 * and at most {@link SHOWN_PATH_MAX_CHARS} characters before escaping.
 */
export function shownPath(path: string, separators?: NameSeparators): string {
  return boundedForDisplay(path, SHOWN_PATH_MAX_CHARS, separators);
}

/** Between backticks, a name holding a backtick is quoted: the backtick would end the code span early. */
const IN_BACKTICKS = nameSeparators('`');

/** A path quoted for a message or a description: `` `{path}` ``, shown with {@link shownPath}. */
export function quotedPath(path: string): string {
  return `\`${shownPath(path, IN_BACKTICKS)}\``;
}

/**
 * Longest argument of a call quoted back in a message that is not a path (a tool's name, a pattern, a cell's id, a
 * line of a patch): it only tells the model which of its arguments is meant, and its call holds the whole of it.
 */
export const SHOWN_ARGUMENT_MAX_CHARS = 200;

/**
 * An argument a model or a host gave, as a message echoes it when it is not a path: shown as paths are (so a line feed
 * cannot fake a line of its own), and cut in the middle past {@link SHOWN_ARGUMENT_MAX_CHARS} (so a megabyte of it is
 * not sent back); quoted also when it holds one of `separators`, those of the line it is in.
 */
export function shownArgument(text: string, separators?: NameSeparators): string {
  return boundedForDisplay(text, SHOWN_ARGUMENT_MAX_CHARS, separators);
}

/** An argument quoted for a message: `` `{argument}` ``, shown with {@link shownArgument}. */
export function quotedArgument(text: string): string {
  return `\`${shownArgument(text, IN_BACKTICKS)}\``;
}

/**
 * A line of text a model gave (a line of a patch), as a message quotes it: shown as a line of a file is shown
 * ({@link showUnsafeCharacters}: a control character as its picture, so it neither acts nor breaks the line, and the
 * indentation as it is), and cut in the middle past {@link SHOWN_ARGUMENT_MAX_CHARS}.
 */
export function shownArgumentLine(line: string): string {
  return showUnsafeCharacters(cutMiddle(line, SHOWN_ARGUMENT_MAX_CHARS));
}

/** Every character outside printable ASCII, and the quote and backslash the escapes use. */
const NOT_PLAIN_ASCII = /[^\u0020-\u007e]|["\\]/g;

/**
 * `text` quoted with every character outside printable ASCII written as an escape (`"cafe\u0301.txt"`): the form that
 * tells apart two names a reader cannot, such as the NFC and NFD forms of one accented name
 * (docs/paths.md#names-in-a-line). `readShownPath` reads it back like any quoted form.
 */
export function spelledOut(text: string): string {
  return `"${text.replace(NOT_PLAIN_ASCII, escaped)}"`;
}

/** The separator of a list of names, `a.ts, b.ts`: a name holding `, ` is quoted. */
export const LIST_SEPARATORS = nameSeparators(', ');

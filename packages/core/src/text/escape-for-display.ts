/**
 * Characters that would let a file name rewrite what a user or a model reads: C0 and C1 control characters (a newline
 * splits one entry into two, `ESC [2K` erases a terminal line), DEL, the line and paragraph separators, and Unicode's
 * bidirectional controls (an override can make `txt.exe` read as `exe.txt`).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(character: string): string {
  return NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` (usually a path) with every unsafe character made visible as an escape (`\n`, `\t`, `\u001b`, `\u202e`), so
 * it stays on one line and reads as what it is. Everything else, backslashes included, is left as it is: an ordinary
 * name comes back unchanged.
 */
export function escapeForDisplay(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** A path quoted for a message or a description: `` `{path}` ``, escaped with {@link escapeForDisplay}. */
export function quotedPath(path: string): string {
  return `\`${escapeForDisplay(path)}\``;
}

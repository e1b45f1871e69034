import { nameFromBytes } from '@kimi-tools/core/fs';
import { escapeForDisplay } from '@kimi-tools/core/toolkit';

/** The side of a new or deleted file. */
export const DEV_NULL = '/dev/null';

/** git's one-letter escapes in a quoted path (`quote_c_style`), beside `\"`, `\\` and three octal digits for a byte. */
const LETTER_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * The name git wrote between double quotes at the start of `text` (a name holding a control character, a quote, a
 * backslash or, by default, a byte above 127: `"a/caf\303\251.txt"`), read back; `undefined` when `text` opens with no
 * such name. Bytes that are not UTF-8 are the name they stand for (docs/paths.md#names-that-are-not-utf-8):
 * `"a/inv\377.txt"` is `a/inv\udcff.txt`, as git prints that file.
 */
function gitQuotedName(text: string): string | undefined {
  const bytes: number[] = [];
  const utf8 = new TextEncoder();
  for (let at = 1; at < text.length; at++) {
    const char = text[at]!;
    if (char === '"') return nameFromBytes(Uint8Array.from(bytes));
    if (char !== '\\') {
      bytes.push(...utf8.encode(char));
      continue;
    }
    const next = text[++at] ?? '';
    const octal = /^[0-3][0-7]{2}/.exec(text.slice(at, at + 3));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      at += 2;
    } else if (next === '"' || next === '\\') bytes.push(next.charCodeAt(0));
    else if (next in LETTER_ESCAPES) bytes.push(LETTER_ESCAPES[next]!);
    else return undefined;
  }
  return undefined;
}

/**
 * The name in the quoted form this project shows names in (a JSON string literal: `"a/t\u001bb.txt"`) at the start of
 * `text`: a model copies that form into a header, `a/` inside the quotes.
 */
function jsonQuotedName(text: string): string | undefined {
  for (let at = 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') {
      try {
        const name: unknown = JSON.parse(text.slice(0, at + 1));
        return typeof name === 'string' ? name : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A path as a unified diff's header gives it: the name itself (read from git's quotes), or the text as written. */
interface HeaderPath {
  path: string;
  /** `path` is the name itself, to be shown before a tool takes it; otherwise it is taken as written (its shown form). */
  raw: boolean;
}

/**
 * The path of a `---`/`+++` header or a `rename from`/`rename to` line. A name git quoted is read back; otherwise the
 * name ends at the tab `diff -u` puts before its timestamp and git after a name holding a space (`a/x.txt ` then a
 * tab: the space is the name's own), or, with no tab, at the line's end less the blanks a hand-written line trails.
 */
export function readHeaderPath(text: string): HeaderPath {
  if (text.startsWith('"')) {
    const name = gitQuotedName(text) ?? jsonQuotedName(text);
    if (name !== undefined) return { path: name, raw: true };
  }
  const tab = text.indexOf('\t');
  return { path: tab < 0 ? text.trimEnd() : text.slice(0, tab), raw: false };
}

/** `a/x` and `b/x` lose their prefixes when both sides carry them (git's default). */
function withoutPrefixes(oldPath: string, newPath: string): [string, string] {
  const oldPrefixed = oldPath === DEV_NULL || oldPath.startsWith('a/');
  const newPrefixed = newPath === DEV_NULL || newPath.startsWith('b/');
  if (!oldPrefixed || !newPrefixed || (oldPath === DEV_NULL && newPath === DEV_NULL))
    return [oldPath, newPath];
  return [
    oldPath === DEV_NULL ? oldPath : oldPath.slice(2),
    newPath === DEV_NULL ? newPath : newPath.slice(2),
  ];
}

/**
 * A header path as the tools take it: a name read from git's quotes in the form names are shown in, whole (a shown
 * path is cut in the middle past 4,096 characters, and would read back as another name).
 */
export function toolPath({ path, raw }: HeaderPath): string {
  return raw ? escapeForDisplay(path) : path;
}

/** The two paths of a file's headers, their `a/` and `b/` prefixes dropped when both carry them, as tools take them. */
export function headerPaths(oldHeader: HeaderPath, newHeader: HeaderPath): [string, string] {
  const [oldPath, newPath] = withoutPrefixes(oldHeader.path, newHeader.path);
  return [toolPath({ ...oldHeader, path: oldPath }), toolPath({ ...newHeader, path: newPath })];
}

/**
 * Elision comments (docs/writing.md#elided-content): a comment line a model writes in place of code it did not repeat,
 * such as `// ... rest of the file unchanged ...`. Written to disk, it deletes that code.
 */

/** Where a comment starts, in the syntaxes of common languages (C family, scripts, SQL, Lisp, TeX, markup, JSX, ML). */
const COMMENT_START = /^(?:\/\/+|#+|\/\*+|\*+|<!--|--|;+|%+|\{\/\*|\(\*|'|rem\b)/i;
/** Closing tokens left at the end of a one-line comment. */
const COMMENT_END = /(?:\*+\/\}?|-->|\*\))\s*$/;

/** What stands for the code left out. */
const SUBJECT = String.raw`(?:rest|remaining|existing|previous|other|original|unchanged|same)`;
const THING = String.raw`(?:code|content|contents|file|lines?|implementation|methods?|functions?|imports?|sections?|body|logic|tests?|fields?|props|properties|styles?|cases?|items?|entries|config(?:uration)?|definitions?|class(?:es)?|routes?|handlers?|components?|exports?|members?|statements?|rules?|declarations?|text|markup|html|query|queries|script|data|rows|setup|keys|values|steps|docs|documentation|paragraphs?|options|settings|dependencies|helpers?|document|modules?|packages?|chapters?|blocks?)`;
/** The subject and the thing close together: "rest of the file", "existing code", "other methods", "remaining test cases". */
const SUBJECT_THING = new RegExp(
  String.raw`\b${SUBJECT}\s+(?:of\s+(?:the\s+)?)?(?:[\w-]+\s+)?${THING}\b`,
  'i',
);
/**
 * "The rest" alone names the code left out when what says so follows it at once: `... rest unchanged ...`,
 * `rest omitted`, `the remainder is the same` (docs/differences.md's lazy overwrite). "Rest" followed by anything else
 * (`rest of the loop runs`, `rest = ...`) is left to `SUBJECT_THING`.
 */
const REST_LEFT_OUT =
  /\b(?:rest|remainder)\s+(?:is\s+|stays\s+)?(?:unchanged|omitted|elided|the same|as before|as is|not shown|untouched|intact)\b/i;
/** What says it was left out. `\u2026` is the ellipsis: built code stays ASCII (tsup.shared.ts). */
const LEFT_OUT =
  /(?:\.\.\.|\u2026|\b(?:unchanged|omitted|elided|remains?|remain|stays?|as before|as is|not shown|truncated|skipped|same|untouched|intact|etc)\b)/i;
/** A bare marker: `// ...`, `# (unchanged)`, `-- same as before`. */
const BARE =
  /^(?:\.\.\.|\u2026)$|^(?:\.\.\.|\u2026)?\s*\(?(?:unchanged|same as before|as before|omitted|elided)\)?\s*(?:\.\.\.|\u2026)?$/i;

/** Whether one line (any indentation) is a comment that reads as code left out. */
export function isElisionComment(line: string): boolean {
  const trimmed = line.trim();
  const start = COMMENT_START.exec(trimmed);
  if (start === null) return false;
  const body = trimmed.slice(start[0].length).replace(COMMENT_END, '').trim();
  if (body.length === 0 || body.length > 120) return false;
  if (BARE.test(body)) return true;
  // The short list of words first: most comments have none of them, and the long pattern then never runs.
  return LEFT_OUT.test(body) && (SUBJECT_THING.test(body) || REST_LEFT_OUT.test(body));
}

function trimmedLines(text: string): string[] {
  return text.split('\n').map((line) => line.trim());
}

/** The shortest form of each comment start of `COMMENT_START`, after a line's blanks (`\s` but a line feed). */
const COMMENT_OPENING = String.raw`[^\S\n]*(?:\/\/|#|\/\*|\*|<!--|--|;|%|\{\/\*|\(\*|'|rem\b)`;
/** The first line, when it starts a comment. */
const FIRST_LINE_COMMENT = new RegExp(`^${COMMENT_OPENING}`, 'i');
/**
 * A line that starts a comment and has a word of `LEFT_OUT` after its start, matched at the line's start (sticky).
 * `\s` is what `trim` removes, so the lines found are those whose trimmed form `COMMENT_START` matches: a line opening
 * with `(`, `{`, `<`, `-` or `/` alone (code, not a comment) is not cut out and checked. Every elision comment has such
 * a word in its body (a `BARE` marker too), so a comment without one (most of them: 1,165 lines of a 5 MB rewrite that
 * each cost a cut and four expressions on a first call) is passed over inside the match.
 */
const LINE_COMMENT = new RegExp(`${COMMENT_OPENING}[^\n]*?${LEFT_OUT.source}`, 'iy');

/**
 * Whether a line whose first character after spaces and tabs is `code` may start a comment: the first character of
 * a `COMMENT_OPENING`, or a character `[^\S\n]` may still skip (a control character but the line feed, or any above
 * ASCII, where the other blanks are). Any other character (a letter but `r`, a digit, most punctuation) starts no
 * comment.
 */
function mayOpenComment(code: number): boolean {
  switch (code) {
    case 0x23: // #
    case 0x25: // %
    case 0x27: // '
    case 0x28: // (
    case 0x2a: // *
    case 0x2d: // -
    case 0x2f: // /
    case 0x3b: // ;
    case 0x3c: // <
    case 0x52: // R
    case 0x72: // r
    case 0x7b: // {
      return true;
    case 0x0a: // an empty line
      return false;
    default:
      return code < 0x20 || code >= 0x7f;
  }
}

/** The trimmed line holding `at`, and where it ends. */
function lineAround(text: string, at: number): { line: string; end: number } {
  const start = text.lastIndexOf('\n', at) + 1;
  const found = text.indexOf('\n', at);
  const end = found === -1 ? text.length : found;
  return { line: text.slice(start, end).trim(), end };
}

// In a fresh process the regular expression engine looks at every character of a 5 MB text (about 12 instructions
// each, 6 ms), while finding each line feed is a vectorised search: so the lines are walked from line feed to line
// feed, and only a line whose first character after its indentation may open a comment is matched, at its start
// (9,138 of the 56,760 lines of a 5 MB rewrite; 1,165 of them open one). The lines are visited in order, so the first
// elision comment found is the same line as a search of the whole text would find.
function firstAddedElision(newText: string, file: string): string | undefined {
  if (FIRST_LINE_COMMENT.test(newText)) {
    const { line } = lineAround(newText, 0);
    if (isElisionComment(line) && !file.includes(line)) return line;
  }
  const scan = new RegExp(LINE_COMMENT.source, LINE_COMMENT.flags);
  for (let feed = newText.indexOf('\n'); feed !== -1; feed = newText.indexOf('\n', feed + 1)) {
    let at = feed + 1;
    let code = newText.charCodeAt(at);
    while (code === 0x20 || code === 0x09) code = newText.charCodeAt(++at);
    if (!mayOpenComment(code)) continue;
    scan.lastIndex = feed + 1;
    if (!scan.test(newText)) continue;
    const { line } = lineAround(newText, feed + 1);
    if (isElisionComment(line) && !file.includes(line)) return line;
  }
  return undefined;
}

/**
 * The first elision comment line of `newText` that the file did not have, when the change also removes lines of
 * `oldText` (the omitted code would be lost); undefined otherwise. `oldText` and `newText` are what the change
 * replaces and what it writes (a whole file, or the replaced regions of one), `\n`-normalised; `file` is the whole old
 * content: a comment already in it is the file's own, never counted. Only the lines of `newText` that may start a
 * comment are cut out unless a candidate turns up, so a small edit of a huge file costs little. `changed` (character
 * offsets, at line starts) holds every line of `newText` that may not be one of `file`'s (the changed middle of a
 * whole-file rewrite, `SharedEdges.newMiddle`): the lines outside it are not looked at, as they could not count.
 */
export function introducedElision(
  oldText: string,
  newText: string,
  file: string = oldText,
  changed: { from: number; to: number } = { from: 0, to: newText.length },
): string | undefined {
  const whole = changed.from === 0 && changed.to === newText.length;
  const added = firstAddedElision(whole ? newText : newText.slice(changed.from, changed.to), file);
  if (added === undefined) return undefined;
  const kept = new Set(trimmedLines(newText));
  const removesLines = trimmedLines(oldText).some((line) => line.length > 0 && !kept.has(line));
  return removesLines ? added : undefined;
}

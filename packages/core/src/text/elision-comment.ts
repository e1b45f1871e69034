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
/** What says it was left out. */
const LEFT_OUT =
  /(?:\.\.\.|…|\b(?:unchanged|omitted|elided|remains?|remain|stays?|as before|as is|not shown|truncated|skipped|same|untouched|intact|etc)\b)/i;
/** A bare marker: `// ...`, `# (unchanged)`, `-- same as before`. */
const BARE =
  /^(?:\.\.\.|…)$|^(?:\.\.\.|…)?\s*\(?(?:unchanged|same as before|as before|omitted|elided)\)?\s*(?:\.\.\.|…)?$/i;

/** Whether one line (any indentation) is a comment that reads as code left out. */
export function isElisionComment(line: string): boolean {
  const trimmed = line.trim();
  const start = COMMENT_START.exec(trimmed);
  if (start === null) return false;
  const body = trimmed.slice(start[0].length).replace(COMMENT_END, '').trim();
  if (body.length === 0 || body.length > 120) return false;
  if (BARE.test(body)) return true;
  return SUBJECT_THING.test(body) && LEFT_OUT.test(body);
}

function trimmedLines(text: string): string[] {
  return text.split('\n').map((line) => line.trim());
}

/**
 * Where a line may start a comment: blanks, then a character a comment start begins with, or `rem`. `\s` is what
 * `trim` removes, and every comment start of `COMMENT_START` begins with one of these, so every line whose trimmed
 * form `COMMENT_START` matches is found (with some lines it does not match, which the full check then turns down).
 */
const MAY_START_COMMENT = /^\s*(?:[/#*<;%{(']|-|rem\b)/gim;

// In a fresh process, splitting a 5 MB text into trimmed lines to look at each takes about 25 ms; this scan, 10 ms (a
// loop over each line's first characters, 15: it runs mostly before the JIT has compiled it). It only cuts out the
// lines that may start a comment, in order, so the first elision comment found is the same line.
function firstAddedElision(newText: string, file: string): string | undefined {
  const scan = new RegExp(MAY_START_COMMENT.source, MAY_START_COMMENT.flags);
  for (let match = scan.exec(newText); match !== null; match = scan.exec(newText)) {
    // The candidate's first character ends the match; `\s*` may have crossed blank lines to reach it.
    const at = match.index + match[0].length - 1;
    const lineStart = newText.lastIndexOf('\n', at) + 1;
    const found = newText.indexOf('\n', at);
    const lineEnd = found === -1 ? newText.length : found;
    const line = newText.slice(lineStart, lineEnd).trim();
    if (isElisionComment(line) && !file.includes(line)) return line;
    scan.lastIndex = lineEnd;
  }
  return undefined;
}

/**
 * The first elision comment line of `newText` that the file did not have, when the change also removes lines of
 * `oldText` (the omitted code would be lost); undefined otherwise. `oldText` and `newText` are what the change
 * replaces and what it writes (a whole file, or the replaced regions of one), `\n`-normalised; `file` is the whole old
 * content: a comment already in it is the file's own, never counted. Only the lines of `newText` that may start a
 * comment are cut out unless a candidate turns up, so a small edit of a huge file costs little.
 */
export function introducedElision(
  oldText: string,
  newText: string,
  file: string = oldText,
): string | undefined {
  const added = firstAddedElision(newText, file);
  if (added === undefined) return undefined;
  const kept = new Set(trimmedLines(newText));
  const removesLines = trimmedLines(oldText).some((line) => line.length > 0 && !kept.has(line));
  return removesLines ? added : undefined;
}

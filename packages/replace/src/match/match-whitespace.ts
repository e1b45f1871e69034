/** How a whitespace-level match shifted the indentation: `prefix` was added to (or removed from) each line. */
export interface IndentShift {
  direction: 'add' | 'remove';
  prefix: string;
}

/** A whitespace-level match in the normalised content: whole lines from `start` to `end`. */
export interface WhitespaceMatch {
  start: number;
  end: number;
  shift: IndentShift;
}

const INDENT = /^[ \t]*/;

function trimEnd(line: string): string {
  return line.replace(/[ \t]+$/, '');
}

function leadingIndent(line: string): string {
  return INDENT.exec(line)?.[0] ?? '';
}

/** The `old` string as lines ready to compare: trailing whitespace trimmed, final line break noted. */
interface OldLines {
  lines: string[];
  endsWithBreak: boolean;
  /** Index of the first non-blank line (the anchor searched for). */
  anchor: number;
}

function splitOld(old: string): OldLines | undefined {
  const endsWithBreak = old.endsWith('\n');
  const lines = (endsWithBreak ? old.slice(0, -1) : old).split('\n').map(trimEnd);
  const anchor = lines.findIndex((line) => line.length > 0);
  if (anchor === -1) return undefined;
  return { lines, endsWithBreak, anchor };
}

/** The shift that turns `oldIndent` into `contentIndent`, if one of them ends with the other. */
function shiftBetween(oldIndent: string, contentIndent: string): IndentShift | undefined {
  if (contentIndent.endsWith(oldIndent)) {
    return { direction: 'add', prefix: contentIndent.slice(0, contentIndent.length - oldIndent.length) };
  }
  if (oldIndent.endsWith(contentIndent)) {
    return { direction: 'remove', prefix: oldIndent.slice(0, oldIndent.length - contentIndent.length) };
  }
  return undefined;
}

/** What a non-blank `old` line must look like in the file under `shift` (undefined: it cannot match). */
function shiftedLine(line: string, shift: IndentShift): string | undefined {
  if (shift.direction === 'add') return shift.prefix + line;
  return line.startsWith(shift.prefix) ? line.slice(shift.prefix.length) : undefined;
}

/** Start of the line that contains `index`. */
function lineStartOf(text: string, index: number): number {
  return text.lastIndexOf('\n', index - 1) + 1;
}

/** End (the `\n` or the text's end) of the line that starts at `start`. */
function lineEndOf(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

/** Tries the window of lines whose anchor line starts at `anchorStart`; returns the match or undefined. */
function matchWindow(
  content: string,
  old: OldLines,
  anchorStart: number,
  shift: IndentShift,
): WhitespaceMatch | undefined {
  // Walk back over the blank lines `old` has before its anchor.
  let start = anchorStart;
  for (let back = 0; back < old.anchor; back += 1) {
    if (start === 0) return undefined;
    start = lineStartOf(content, start - 1);
  }
  let lineStart = start;
  let lineEnd = -1;
  for (let index = 0; index < old.lines.length; index += 1) {
    if (lineStart > content.length) return undefined;
    lineEnd = lineEndOf(content, lineStart);
    const actual = trimEnd(content.slice(lineStart, lineEnd));
    const wanted = old.lines[index] ?? '';
    if (wanted.length === 0) {
      if (actual.length !== 0) return undefined;
    } else if (actual !== shiftedLine(wanted, shift)) {
      return undefined;
    }
    lineStart = lineEnd + 1;
  }
  let end = lineEnd;
  if (old.endsWithBreak) {
    if (end >= content.length) return undefined;
    end += 1;
  }
  return { start, end, shift };
}

/**
 * Finds `old` in `content` (both `\n`-normalised) line by line, ignoring trailing whitespace and a uniform
 * indentation shift: the same run of spaces/tabs added to, or removed from, every non-blank line. Tabs and
 * spaces never stand in for each other. Matches cover whole lines, in order. Candidates come from `indexOf` of
 * the anchor line's text, so the cost is one scan of the content plus a check per candidate. Overlapping windows
 * count separately (they make an edit ambiguous just the same).
 */
export function* iterateWhitespaceMatches(content: string, oldText: string): Generator<WhitespaceMatch> {
  const old = splitOld(oldText);
  if (old === undefined) return;
  const anchorLine = old.lines[old.anchor] ?? '';
  const anchorIndent = leadingIndent(anchorLine);
  const anchorCore = anchorLine.slice(anchorIndent.length);
  let from = 0;
  for (;;) {
    const hit = content.indexOf(anchorCore, from);
    if (hit === -1) return;
    from = hit + 1;
    const lineStart = lineStartOf(content, hit);
    const contentIndent = content.slice(lineStart, hit);
    if (!/^[ \t]*$/.test(contentIndent)) continue;
    const shift = shiftBetween(anchorIndent, contentIndent);
    if (shift === undefined) continue;
    const match = matchWindow(content, old, lineStart, shift);
    if (match !== undefined) {
      yield match;
      // The anchor line can only start one window; skip the rest of it.
      from = lineEndOf(content, lineStart) + 1;
    }
  }
}

/** The first `limit` matches of {@link iterateWhitespaceMatches}. */
export function findWhitespaceMatches(content: string, oldText: string, limit = Infinity): WhitespaceMatch[] {
  const matches: WhitespaceMatch[] = [];
  if (limit <= 0) return matches;
  for (const match of iterateWhitespaceMatches(content, oldText)) {
    matches.push(match);
    if (matches.length >= limit) break;
  }
  return matches;
}

/**
 * Re-indents `replacement` (`\n`-normalised) by the shift a whitespace-level match found: the prefix is added
 * to every non-blank line, or removed from the start of every line that has it (a line with only part of it
 * loses that part).
 */
export function reindent(replacement: string, shift: IndentShift): string {
  if (shift.prefix.length === 0) return replacement;
  return replacement
    .split('\n')
    .map((line) => {
      if (trimEnd(line).length === 0) return line;
      if (shift.direction === 'add') return shift.prefix + line;
      let common = 0;
      while (common < shift.prefix.length && line[common] === shift.prefix[common]) common += 1;
      return line.slice(common);
    })
    .join('\n');
}

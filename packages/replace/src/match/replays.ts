import { lineSnippet, normalizeLineEndings, type LoggedEdit } from '@kimi-tools/core/toolkit';
import type { FindResult } from './find-edit.js';
import { lineNumbersAt } from './line-numbers.js';

/** Occurrences of a written text looked at, at most: enough for any real file, bounded for a pathological one. */
const MAX_OCCURRENCES = 1000;

function occurrences(text: string, needle: string): number[] {
  const starts: number[] = [];
  for (
    let at = text.indexOf(needle);
    at !== -1 && starts.length < MAX_OCCURRENCES;
    at = text.indexOf(needle, at + 1)
  )
    starts.push(at);
  return starts;
}

/** The occurrence of `written` closest to the line it was written at, with its first and last line. */
function nearest(text: string, entry: LoggedEdit): { start: number; from: number; to: number } | undefined {
  const starts = occurrences(text, entry.written);
  if (starts.length === 0) return undefined;
  const lines = lineNumbersAt(text, starts);
  let best = 0;
  for (let index = 1; index < lines.length; index++)
    if (Math.abs(lines[index]! - entry.line) < Math.abs(lines[best]! - entry.line)) best = index;
  const start = starts[best]!;
  const last = entry.written.endsWith('\n') ? entry.written.length - 2 : entry.written.length - 1;
  const [from, to] = lineNumbersAt(text, [start, start + Math.max(0, last)]);
  return { start, from: from ?? 1, to: to ?? from ?? 1 };
}

/** Whether a logged edit is this very edit again (`old` and `new` both `\n`-normalised): only such an edit is a replay. */
export function isSameEdit(entry: LoggedEdit, old: string, replacement: string): boolean {
  return entry.old === old && entry.new === replacement;
}

/**
 * Where this session already applied exactly this edit, if it did and its text is still there: `old` is not found
 * (the edit replaced it), or found only inside the text the edit wrote (an insertion after an anchor, whose `new`
 * repeats `old`). A deletion counts as applied when `old` is gone. Newest edits are looked at first.
 */
export function alreadyAppliedAt(
  text: string,
  old: string,
  replacement: string,
  found: FindResult,
  log: readonly LoggedEdit[],
): number | undefined {
  for (let index = log.length - 1; index >= 0; index--) {
    const entry = log[index]!;
    if (!isSameEdit(entry, old, replacement)) continue;
    if (entry.written === '') {
      if (found.kind === 'not-found') return entry.line;
      continue;
    }
    const place = nearest(text, entry);
    if (place === undefined) continue;
    if (found.kind === 'not-found') return place.from;
    if (found.kind !== 'found') continue;
    // Found only inside a copy of the written text (any copy, not just the nearest): the insertion is there.
    const starts = occurrences(text, entry.written);
    const inside = starts.find((start) =>
      found.spans.every((span) => span.start >= start && span.end <= start + entry.written.length),
    );
    if (inside !== undefined) return lineNumbersAt(text, [inside])[0] ?? place.from;
  }
  return undefined;
}

/** Lines trimmed, blank ones dropped: what two strings must share to be the same text, whatever their indentation. */
function bare(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** Whether two texts are the same text, or one holds the other, compared {@link bare}. */
function related(bareOne: string, bareOther: string): boolean {
  return (
    bareOne.length > 0 && bareOther.length > 0 && (bareOne.includes(bareOther) || bareOther.includes(bareOne))
  );
}

type Place = { start: number; from: number; to: number };

/**
 * Where the text `log[at]` wrote is now: where it stands, or, when a later edit of this session replaced it (`A → B`
 * then `B → C`), where that edit's text stands, followed edit by edit. `seen` keeps each entry's answer, so a long log
 * is walked once.
 */
function placeNow(
  text: string,
  log: readonly LoggedEdit[],
  at: number,
  seen: Map<number, Place | undefined>,
): Place | undefined {
  if (seen.has(at)) return seen.get(at);
  seen.set(at, undefined);
  const entry = log[at]!;
  let place = entry.written === '' ? undefined : nearest(text, entry);
  const written = bare(entry.written);
  for (let later = at + 1; place === undefined && later < log.length; later++)
    if (related(bare(log[later]!.old), written)) place = placeNow(text, log, later, seen);
  seen.set(at, place);
  return place;
}

/**
 * When `old` (not found) is text an earlier edit of this session replaced, or holds it: the lines where that edit's
 * text is now (or the text of a later edit that replaced it in turn), and those lines numbered as ReadFile shows
 * them. Only text this session wrote is looked for.
 */
export function replacedRegion(
  text: string,
  old: string,
  log: readonly LoggedEdit[],
): { from: number; to: number; excerpt: string } | undefined {
  const wanted = bare(old);
  const seen = new Map<number, Place | undefined>();
  for (let index = log.length - 1; index >= 0; index--) {
    if (!related(bare(log[index]!.old), wanted)) continue;
    const place = placeNow(text, log, index, seen);
    if (place === undefined) continue;
    const excerpt = lineSnippet(text, [{ from: place.from, count: place.to - place.from + 1 }], {
      context: 1,
    });
    return { from: place.from, to: place.to, excerpt: excerpt.output };
  }
  return undefined;
}

/**
 * The texts of the log whose places in the file {@link alreadyAppliedAt} and {@link replacedRegion} may look for,
 * when `edits` are applied: what each logged edit wrote that one of them repeats or is related to, and, edit by edit,
 * the texts of the later edits that replaced it in turn.
 */
export function loggedTextsToFind(
  log: readonly LoggedEdit[],
  edits: readonly { old: string; new: string }[],
): string[] {
  const wanted = edits.map((edit) => ({
    old: normalizeLineEndings(edit.old),
    replacement: normalizeLineEndings(edit.new),
  }));
  const found = new Set<number>();
  const follow = (at: number): void => {
    if (found.has(at)) return;
    found.add(at);
    const written = bare(log[at]!.written);
    for (let later = at + 1; later < log.length; later++)
      if (related(bare(log[later]!.old), written)) follow(later);
  };
  for (const [index, entry] of log.entries()) {
    const bareOld = bare(entry.old);
    if (
      wanted.some(
        ({ old, replacement }) => isSameEdit(entry, old, replacement) || related(bareOld, bare(old)),
      )
    )
      follow(index);
  }
  return [...found].map((index) => log[index]!.written).filter((written) => written !== '');
}

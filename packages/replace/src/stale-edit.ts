import { unifiedDiffLines } from '@kimi-tools/core';
import {
  buildDiffBlocks,
  changedLines,
  lineSnippet,
  quotedPath,
  showControlCharacters,
  withFinalLineBreak,
  type TextReplacement,
} from '@kimi-tools/core/toolkit';
import { lineNumbersAt } from './match/line-numbers.js';

/** Lines of the diff of what changed since the read that an overlap refusal shows, at most. */
export const STALE_DIFF_MAX_LINES = 40;

/** Whether edits computed on a file that changed since the read may be written: yes (with a note), or why not. */
export type StaleEdit = { kind: 'apply'; note: string } | { kind: 'overlap'; message: string };

/** The lines `[from, to]` of the current text each replacement changes (offsets of the current text). */
function editedLines(
  text: string,
  replacements: readonly TextReplacement[],
): Array<{ from: number; to: number }> {
  const offsets = replacements.flatMap((replacement) => [
    replacement.start,
    Math.max(replacement.start, replacement.end - 1),
  ]);
  const lines = lineNumbersAt(text, offsets);
  return replacements.map((_, index) => ({ from: lines[index * 2] ?? 1, to: lines[index * 2 + 1] ?? 1 }));
}

/**
 * The diff of the current text against the one read, as unified-diff lines, at most {@link STALE_DIFF_MAX_LINES}; their
 * control characters shown as ReadFile shows them (pictures), as the lines above the diff are.
 */
function diffSinceRead(base: string, current: string, budgetMs: number): string {
  const lines = unifiedDiffLines(buildDiffBlocks('', base, current, { budgetMs }))
    .filter((line) => line.kind !== 'file')
    .map((line) => showControlCharacters(line.text));
  if (lines.length <= STALE_DIFF_MAX_LINES) return lines.join('\n');
  const hidden = lines.length - (STALE_DIFF_MAX_LINES - 1);
  return [...lines.slice(0, STALE_DIFF_MAX_LINES - 1), `... ${hidden} more diff lines not shown`].join('\n');
}

/** The refusal of an edit whose lines changed since the read: those lines as they are now, and what changed. */
function overlapMessage(
  input: string,
  base: string,
  current: string,
  range: { from: number; to: number },
  budgetMs: number,
): string {
  const lines = lineSnippet(current, [{ from: range.from, count: range.to - range.from + 1 }], {
    context: 0,
  });
  const span = range.from === range.to ? `line ${range.from}` : `lines ${range.from}-${range.to}`;
  return `${quotedPath(input)} has been modified since it was last read, and the change touches the lines the edit would change (${span}). No changes were made. Those lines now read:\n\`\`\`\n${withFinalLineBreak(lines.output)}\`\`\`\nWhat changed since the read:\n\`\`\`diff\n${diffSinceRead(base, current, budgetMs)}\n\`\`\`\nEdit against the current lines.`;
}

/**
 * An edit whose `old` is not in the file any more but was in the text last read: the change since the read took it,
 * so it is refused as an overlap, showing the lines that now stand where `old` was. Undefined when `old` was not in the
 * text read either (a plain `No match` then).
 */
export function staleMiss(
  input: string,
  base: string,
  current: string,
  old: string,
  budgetMs: number,
): string | undefined {
  const start = base.indexOf(old);
  if (start === -1) return undefined;
  const [from = 1, to = 1] = lineNumbersAt(base, [start, Math.max(start, start + old.length - 1)]);
  const touching = changedLines(base, current, budgetMs).filter(
    (change) => change.oldFrom <= to && change.oldFrom + Math.max(change.oldCount, 1) - 1 >= from,
  );
  const first = touching[0];
  const last = touching.at(-1);
  if (first === undefined || last === undefined) return undefined;
  // Lines deleted outright leave no line of their own: the line after them stands in their place.
  const region = { from: first.newFrom, to: Math.max(first.newFrom, last.newFrom + last.newCount - 1) };
  return overlapMessage(input, base, current, region, budgetMs);
}

/**
 * docs/str-replace-file.md#a-file-changed-since-the-read: the edits, found uniquely in the current text, may be written
 * when none of the lines they change was changed since the read (`base`); else the refusal shows the lines there now
 * and what changed. A deletion since the read counts when it sat inside an edited range.
 */
export function checkStaleEdit(
  input: string,
  base: string,
  current: string,
  replacements: readonly TextReplacement[],
  budgetMs: number,
): StaleEdit {
  const changes = changedLines(base, current, budgetMs);
  const edited = editedLines(current, replacements);
  for (const range of edited) {
    const touched = changes.some((change) =>
      change.newCount > 0
        ? change.newFrom <= range.to && change.newFrom + change.newCount - 1 >= range.from
        : change.newFrom > range.from && change.newFrom <= range.to,
    );
    if (touched) return { kind: 'overlap', message: overlapMessage(input, base, current, range, budgetMs) };
  }
  const changed = changes
    .filter((change) => change.newCount > 0)
    .map((change) =>
      change.newCount === 1
        ? `${change.newFrom}`
        : `${change.newFrom}-${change.newFrom + change.newCount - 1}`,
    );
  const removed = changes.filter((change) => change.newCount === 0).map((change) => `${change.newFrom}`);
  const oneLine = changed.length === 1 && !changed[0]!.includes('-');
  const parts = [
    changed.length > 0 ? `${oneLine ? 'line' : 'lines'} ${changed.join(', ')} changed` : '',
    removed.length > 0
      ? `lines were removed before ${removed.length === 1 ? 'line' : 'lines'} ${removed.join(', ')}`
      : '',
  ].filter((part) => part.length > 0);
  return {
    kind: 'apply',
    note: ` The file had changed since it was last read (${parts.join('; ')}, in the current file's numbering); the edit(s) were applied to its current content, away from those lines.`,
  };
}

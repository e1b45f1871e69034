import type { ToolReturnValue } from '@kimi-tools/core';
import {
  CLOSEST_TEXT_MAX_LINES,
  countLineBreaks,
  normalizeLineEndings,
  type TextReplacement,
} from '@kimi-tools/core/toolkit';
import type { EditCall, EditRead } from '../edit/edit-call.js';
import { judgeMatch } from '../edit/judge-match.js';
import { editTextRefusal, type StrReplaceFileBrief } from '../errors.js';
import { applyEdits, type ApplyEditsOptions, type ApplyEditsResult } from '../match/apply-edits.js';
import type { EditSpec } from '../match/types.js';
import type { WindowFormat } from './file-format.js';
import { mergeWindows, WindowFinder, type WindowRange } from './window-ranges.js';
import { readWindows, type EditText, type FileToEdit, type TextWindow } from './window-text.js';

/** Bytes of the file's first lines read for the closest text of a failed edit, at most. */
const FIRST_LINES_MAX_BYTES = 8 * 1024 * 1024;

/** How far the edits of a call may reach from text an earlier edit of the call wrote: all their lines and characters. */
function cascadeReach(edits: readonly EditSpec[]): { lines: number; chars: number } {
  const olds = edits.map((edit) => normalizeLineEndings(edit.old));
  return {
    lines: olds.reduce((sum, old) => sum + old.split('\n').length, 0),
    chars: olds.reduce((sum, old) => sum + old.length, 0),
  };
}

function rangeOf({ start, end, firstLine, cutStart, cutEnd }: WindowRange): WindowRange {
  return { start, end, firstLine, cutStart, cutEnd };
}

/**
 * Whether a change in `window` (offsets `[start, end)` of its text) lies closer to an edge inside the file than an
 * edit of the call may reach from it: a later edit may have matched across that edge, on text the window left out.
 */
function nearEdge(
  window: TextWindow,
  size: number,
  fileStart: number,
  start: number,
  end: number,
  reach: { lines: number; chars: number },
): boolean {
  const { text } = window;
  const tooClose = (from: number, to: number, cut: boolean) =>
    cut ? to - from < reach.chars : countLineBreaks(text, from, to) < reach.lines;
  return (
    (window.start > fileStart && tooClose(0, start, window.cutStart)) ||
    (window.end < size && tooClose(end, text.length, window.cutEnd))
  );
}

/** The changes the edits before the one that failed made: where a later edit may have matched across an edge. */
function changesMade(
  text: EditText,
  edits: readonly EditSpec[],
  result: ApplyEditsResult,
  options: MatchOptions,
) {
  if (result.ok) return result.replacements;
  if (result.index <= 1) return [];
  const before = applyEdits(text.decoded, edits.slice(0, result.index - 1), options);
  return before.ok ? before.replacements : [];
}

/** How the edits are matched. */
type MatchOptions = Required<ApplyEditsOptions>;

/** The windows with the file's first lines too, as far as the closest text of a failed edit is looked for. */
async function withFirstLines(
  file: FileToEdit,
  format: WindowFormat,
  text: EditText,
): Promise<WindowRange[]> {
  const hit = { start: format.start, end: format.start, line: 1 };
  const finder = new WindowFinder(file.handle, file.size, format);
  const head = await finder.around(hit, { lines: CLOSEST_TEXT_MAX_LINES, bytes: FIRST_LINES_MAX_BYTES });
  return mergeWindows([head, ...text.windows.map(rangeOf)]);
}

/**
 * The windows grown around the changes (`changes`, of the edited text) that lie closer to an edge inside the file
 * than the edits of the call may reach (`reach`); undefined when none does, or none could grow (the file's ends).
 */
async function grownAround(
  file: FileToEdit,
  format: WindowFormat,
  text: EditText,
  changes: readonly TextReplacement[],
  reach: { lines: number; chars: number },
): Promise<WindowRange[] | undefined> {
  const finder = new WindowFinder(file.handle, file.size, format);
  const around = {
    lines: reach.lines + file.tuning.windowContextLines,
    bytes: file.tuning.windowReachBytes + 4 * reach.chars,
  };
  const ranges: WindowRange[] = [];
  let grown = false;
  for (const window of text.windows) {
    const end = window.at + window.text.length;
    const near = changes.some(
      (change) =>
        change.start >= window.at &&
        change.end <= end &&
        nearEdge(window, file.size, format.start, change.start - window.at, change.end - window.at, reach),
    );
    const range = near
      ? await finder.around({ start: window.start, end: window.end, line: window.firstLine }, around)
      : rangeOf(window);
    grown ||= range.start !== window.start || range.end !== window.end;
    ranges.push(range);
  }
  return grown ? mergeWindows(ranges) : undefined;
}

/**
 * Step 3 of an edit (docs/str-replace-file.md#files-read-in-windows): the edits matched on the text read, reading more
 * of a file read in windows where the answer needs it: an edit not found is answered from the file's first lines as
 * for a whole file (its closest text is looked for there), and the windows of a list of edits grow where a change
 * comes closer to their edge than a later edit may reach from it, until every change is that far inside. Then the
 * match is judged (step 4).
 */
export async function matchEdits(
  call: EditCall,
  read: EditRead,
): Promise<ToolReturnValue<StrReplaceFileBrief>> {
  const { file, edits } = call;
  const options: MatchOptions = { mode: call.mode, log: call.log };
  let { text } = read;
  let firstLines = false;
  for (;;) {
    const result = applyEdits(text.decoded, edits, options);
    const { format } = text;
    let ranges: WindowRange[] | undefined;
    if (format !== undefined && !result.ok && result.failure.kind === 'not-found' && !firstLines) {
      firstLines = true;
      ranges = await withFirstLines(file, format, text);
    } else if (format !== undefined && edits.length > 1) {
      const changes = changesMade(text, edits, result, options);
      ranges = await grownAround(file, format, text, changes, cascadeReach(edits));
    }
    if (format === undefined || ranges === undefined) return judgeMatch(call, { ...read, text }, result);
    const more = await readWindows(file, format, ranges);
    if ('refused' in more) return editTextRefusal(call, more);
    text = more;
  }
}

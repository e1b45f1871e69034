import { toolOk, type ToolReturnValue } from '@kimi-tools/core';
import {
  applyFileChange,
  applyStreamedChange,
  changedLines,
  EDIT_LOG,
  lineSnippet,
  recordSeenText,
  snippetCutSentence,
  withAnswerNote,
  type ApplyOutcome,
  type LineSnippet,
} from '@kimi-tools/core/toolkit';
import type { StrReplaceFileBrief } from '../errors.js';
import type { ApplyEditsResult } from '../match/apply-edits.js';
import type { MatchLevel } from '../match/types.js';
import type { WindowPlan } from '../window/window-plan.js';
import type { EditCall, EditRead, EditVerdict } from './edit-call.js';

const LEVEL_WORDS: Record<Exclude<MatchLevel, 'exact'>, string> = {
  'line-endings': 'line endings',
  quotes: 'quotes',
  whitespace: 'whitespace',
  indentation: 'tabs and spaces in indentation',
  'line-numbers': 'line-number prefixes',
};

/**
 * docs/str-replace-file.md success message, with one sentence per edit that needed a looser level. `written` is
 * `'part'` when the user approved only some hunks: the edits all matched, but not all of them reached the file.
 */
export function editSuccessText(
  levels: readonly MatchLevel[],
  totalReplacements: number,
  written: 'whole' | 'part' = 'whole',
): string {
  const counts = `${levels.length} edit(s) with ${totalReplacements} total replacement(s)`;
  let message =
    written === 'whole'
      ? `File successfully edited. Applied ${counts}.`
      : `File successfully edited. Matched ${counts}; only part of the change was written.`;
  levels.forEach((level, position) => {
    if (level !== 'exact')
      message += ` Edit ${position + 1} matched after normalising ${LEVEL_WORDS[level]}.`;
  });
  return message;
}

/** What was written, as either write tells it: the bytes and how the answer shaped them only for a file read whole. */
type Written = Pick<Extract<ApplyOutcome, { kind: 'written' }>, 'display' | 'note'> &
  Partial<Pick<Extract<ApplyOutcome, { kind: 'written' }>, 'newBytes' | 'newHash' | 'shaped'>>;

/**
 * Step 6, the last of an edit (docs/str-replace-file.md#approval-and-writing): the change asked for and written
 * through core — a file read whole with its new bytes (its approval offers hunks and the content to edit, the runtime's
 * change observers are told, and under the lock the file must still hold the bytes read), one read in windows by
 * copying it with the windows' changed bytes (taken whole; under the lock it must still carry the stamp taken before
 * the scan) — then the edits logged and the model told what the file now holds there.
 */
export async function writeEdit(
  call: EditCall,
  read: EditRead,
  result: Extract<ApplyEditsResult, { ok: true }>,
  plan: WindowPlan,
  verdict: EditVerdict,
): Promise<ToolReturnValue<StrReplaceFileBrief>> {
  const { runtime, target, edits } = call;
  const { extras } = verdict;
  // Edits that leave every byte as it was (one undoing another) ask nothing and write nothing.
  const unchanged = toolOk({
    message: `File unchanged: the edits leave the content identical to the current file. Applied ${edits.length} edit(s) with ${extras.replacements} total replacement(s).`,
    extras: { ...extras },
  });
  if (plan.unchanged) return unchanged;
  const change = { sender: call.sender, verb: 'Edit', path: target } as const;
  const outcome =
    plan.newBytes !== undefined
      ? await applyFileChange(
          runtime,
          {
            ...change,
            oldBytes: read.text.whole!,
            ...(read.stamp && { oldStamp: read.stamp }),
            newBytes: plan.newBytes,
            oldText: read.text.decoded.text,
            newText: plan.newText!,
            // Applied over a change since the read, the read state is stale by design; the file must still hold the
            // bytes read when it is written, so a change during the approval is refused all the same.
            checkReadState: runtime.readBeforeWrite && read.base === undefined,
          },
          call.signal,
        )
      : await applyStreamedChange(
          runtime,
          {
            ...change,
            oldStamp: read.stamp!,
            display: plan.display,
            newSize: plan.newSize,
            writeTo: plan.writeTo,
            checkReadState: runtime.readBeforeWrite,
          },
          call.signal,
        );
  if (outcome.kind === 'unchanged') return unchanged;
  if (outcome.kind === 'refused') return outcome.result;
  const written: Written = outcome;
  // Logged even when the user kept only some hunks: a replay is recognised by its written text standing where it was
  // written, which a rejected edit's never does.
  runtime.slot(EDIT_LOG).record(target.real, result.applied);
  if (written.newBytes) recordSeenText(runtime, target.real, written.newBytes, written.newHash);
  const snippet = written.shaped ? shapedSnippet(call, read, written.shaped) : plan.snippet;
  const levels = result.edits.map((outcome) => outcome.matchedBy);
  const cut = snippet.unshown ? snippetCutSentence(snippet.unshown) : '';
  const part = written.shaped?.how === 'hunks' ? 'part' : 'whole';
  const message = editSuccessText(levels, extras.replacements, part) + verdict.staleNote + cut;
  return toolOk({
    // The changed places as the file now is, so the model needs no re-read to see or build on its edit.
    output: snippet.output,
    message: withAnswerNote(message, written.note),
    display: written.display,
    extras: { ...extras },
  });
}

/**
 * The changed places of what was written when the user's answer shaped the change (some hunks, or their own content):
 * nothing for bytes that are not text.
 */
function shapedSnippet(call: EditCall, read: EditRead, shaped: { text: string | undefined }): LineSnippet {
  if (shaped.text === undefined) return { output: '' };
  const changes = changedLines(read.text.decoded.text, shaped.text, call.runtime.diffBudgetMs);
  return lineSnippet(
    shaped.text,
    changes.map((change) => ({ from: change.newFrom, count: change.newCount })),
  );
}

import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import { Briefs, introducedElision, normalizeLineEndings } from '@kimi-tools/core/toolkit';
import { editFailureText, elidedContentError, type StrReplaceFileBrief } from '../errors.js';
import type { ApplyEditsResult } from '../match/apply-edits.js';
import { MATCH_LEVELS, type EditOutcome, type MatchLevel } from '../match/types.js';
import { checkStaleEdit, staleMiss } from '../stale-edit.js';
import { planEdit } from '../window/window-plan.js';
import type { EditCall, EditRead } from './edit-call.js';

function loosestLevel(outcomes: readonly EditOutcome[]): MatchLevel {
  let loosest = 0;
  for (const outcome of outcomes) loosest = Math.max(loosest, MATCH_LEVELS.indexOf(outcome.matchedBy));
  return MATCH_LEVELS[loosest] ?? 'exact';
}

/**
 * Step 4 of an edit (docs/str-replace-file.md#checks-in-order): the match judged by the tool's rules. An edit that
 * failed is answered, as the change since the read when that change took its `old`; edits that put an elision comment
 * where lines of the file were are refused; over a change since the read, the edits apply only away from its lines.
 * Then the change is planned (step 5).
 */
export async function judgeMatch(
  call: EditCall,
  read: EditRead,
  result: ApplyEditsResult,
): Promise<ToolReturnValue<StrReplaceFileBrief>> {
  const current = read.text.decoded.text;
  if (!result.ok) {
    // Not found now, but in the text last read: the change since the read took it; say so, with what changed.
    const edit = call.edits[result.index - 1];
    const miss =
      read.base !== undefined && result.failure.kind === 'not-found' && edit !== undefined
        ? staleMiss(call.input, read.base, current, normalizeLineEndings(edit.old), call.runtime.diffBudgetMs)
        : undefined;
    if (miss !== undefined) return toolError({ message: miss, brief: Briefs.fileModified });
    return toolError(editFailureText(result.index, result.failure));
  }
  let staleNote = '';
  // A replay changes nothing: there is nothing to judge.
  if (result.alreadyApplied.length === 0) {
    // A lazy edit (`# ... existing code ...` for real lines) would delete the user's code.
    const replaced = result.replacements.map(({ start, end }) => current.slice(start, end)).join('\n');
    const written = result.replacements.map((replacement) => replacement.text).join('\n');
    const elided = introducedElision(replaced, written, current);
    if (elided !== undefined) return elidedContentError(elided);
    if (read.base !== undefined) {
      const { input, runtime } = call;
      const stale = checkStaleEdit(input, read.base, current, result.replacements, runtime.diffBudgetMs);
      if (stale.kind === 'overlap') return toolError({ message: stale.message, brief: Briefs.fileModified });
      staleNote = stale.note;
    }
  }
  const replacements = result.edits.reduce((sum, outcome) => sum + outcome.replacements, 0);
  const extras = { replacements, matchedBy: loosestLevel(result.edits), edits: result.edits };
  return planEdit(call, read, result, { extras, staleNote });
}

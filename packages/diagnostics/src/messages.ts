import { counted } from '@kimi-tools/core/toolkit';

// Every string the model and the user read of a diagnostics report (docs/diagnostics.md), in one place.

/** `1 problem`, `2 problems`. */
function problems(count: number): string {
  return counted(count, 'problem');
}

/** What the report adds about problems that were there before the change, and those it fixed. */
function afterwards(kept: number, fixed: number): string {
  let text = '';
  if (kept > 0)
    text += ` ${problems(kept)} already there before this change ${kept === 1 ? 'remains' : 'remain'}.`;
  if (fixed > 0) text += ` This change fixed ${problems(fixed)}.`;
  return text;
}

/** The report when the change introduced no problem. */
export function cleanMessage(kept: number, fixed: number): string {
  return `Diagnostics: clean, this change introduced no problems.${afterwards(kept, fixed)}`;
}

/** The first line of the report when the change introduced problems; the problems follow, one a line. */
export function newProblemsMessage(added: number, kept: number, fixed: number): string {
  return `Diagnostics: new problems, this change introduced ${problems(added)}.${afterwards(kept, fixed)}`;
}

/** The line after the shown problems when there are more. */
export function moreProblemsMessage(count: number): string {
  return `... and ${count} more.`;
}

/** The report when a checker ran out of time: never taken for clean. */
export function timedOutMessage(budgetMs: number): string {
  return `Diagnostics: timed out after ${budgetMs} ms, so the problems this change introduced are unknown.`;
}

/** Why no checker looked at a file. */
export type NoCheckerReason = 'language' | 'sensitive' | 'not text' | 'too large' | 'failed';

/** The report when no checker looked at the file. */
export function noCheckerMessage(reason: NoCheckerReason, detail: string): string {
  switch (reason) {
    case 'language':
      return 'Diagnostics: no checker for this kind of file.';
    case 'sensitive':
      return 'Diagnostics: no checker, sensitive files are not checked.';
    case 'not text':
      return 'Diagnostics: no checker, the file is not text.';
    case 'too large':
      return `Diagnostics: no checker, the file is larger than ${detail} bytes.`;
    case 'failed':
      return `Diagnostics: no checker, the checker failed: ${detail}`;
  }
}

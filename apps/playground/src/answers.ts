import type { ApprovalResponse } from '@kimi-tools/core';

/** The words an answer may start with, and what each means. */
const ANSWER_WORDS: Record<string, ApprovalResponse['kind']> = {
  y: 'approve',
  yes: 'approve',
  a: 'approve_for_session',
  always: 'approve_for_session',
  n: 'reject',
  no: 'reject',
};

/**
 * Parses one scripted answer: `y`/`yes` approve once, `a`/`always` approve for the session, `n`/`no` reject, and
 * `n:FEEDBACK` (or `no:FEEDBACK`) reject with feedback for the model. Returns `undefined` when the text is none of
 * these.
 */
export function parseAnswer(text: string): ApprovalResponse | undefined {
  const colon = text.indexOf(':');
  const word = (colon === -1 ? text : text.slice(0, colon)).trim().toLowerCase();
  const kind = ANSWER_WORDS[word];
  if (kind === undefined) return undefined;
  if (colon === -1) return { kind } as ApprovalResponse;
  // Feedback only makes sense with a rejection: `y:thanks` is a mistake worth reporting.
  if (kind !== 'reject') return undefined;
  const feedback = text.slice(colon + 1).trim();
  return feedback ? { kind: 'reject', feedback } : { kind: 'reject' };
}

/** Parses `--answers` values: each is a comma-separated list of answers (so feedback cannot contain a comma). */
export function parseAnswerList(
  values: readonly string[],
): { answers: ApprovalResponse[] } | { error: string } {
  const answers: ApprovalResponse[] = [];
  for (const value of values) {
    for (const item of value.split(',')) {
      const answer = parseAnswer(item);
      if (!answer) {
        return {
          error: `"${item.trim()}" is not an answer: use y, a, n or n:FEEDBACK (comma-separated, e.g. y,a,n:use tabs).`,
        };
      }
      answers.push(answer);
    }
  }
  return { answers };
}

/** How an answer reads in the transcript. */
export function describeAnswer(answer: ApprovalResponse): string {
  switch (answer.kind) {
    case 'approve':
      return 'approve';
    case 'approve_for_session':
      return 'approve for this session';
    case 'reject':
      return answer.feedback ? `reject, with feedback "${answer.feedback}"` : 'reject';
  }
}

import path from 'node:path';
import type { ApprovalResponse, ApprovalScope } from '@kimi-tools/core';

/**
 * An answer as the playground takes it: an approval response, or `edit` — the user's own version of the proposal,
 * from the step's scripted `edit` or from `$EDITOR`, made when the request comes.
 */
export type PlaygroundAnswer = ApprovalResponse | { kind: 'edit' };

/** The words an answer may start with, and what each means. */
const ANSWER_WORDS: Record<string, PlaygroundAnswer['kind'] | 'hunks'> = {
  y: 'approve',
  yes: 'approve',
  a: 'approve_for_session',
  always: 'approve_for_session',
  n: 'reject',
  no: 'reject',
  h: 'hunks',
  hunks: 'hunks',
  e: 'edit',
  edit: 'edit',
};

/** What `--answers` and a script's `answer` may be, for error messages. */
export const ANSWER_FORMS = 'y, a, a:file, a:dir, n, n:FEEDBACK, h:HUNKS or e';

/** The scopes an `a:SCOPE` answer may name (docs/approval.md#answers), and the scope each means. */
const SCOPE_WORDS: Record<string, ApprovalScope> = {
  f: 'file',
  file: 'file',
  d: 'directory',
  dir: 'directory',
  directory: 'directory',
  action: 'action',
};

/** The scope a word names (`f`/`file`, `d`/`dir`/`directory`, `action`, any case), or `undefined`. */
export function parseScope(word: string): ApprovalScope | undefined {
  return SCOPE_WORDS[word.trim().toLowerCase()];
}

/** `h:h1+h3` or `h:h1+h3:FEEDBACK`: only those hunks; `h:` approves none, which rejects. */
function parseHunks(rest: string): ApprovalResponse | undefined {
  const colon = rest.indexOf(':');
  const list = (colon === -1 ? rest : rest.slice(0, colon)).trim();
  const feedback = colon === -1 ? '' : rest.slice(colon + 1).trim();
  const hunks = list === '' ? [] : list.split('+').map((id) => id.trim());
  if (hunks.some((id) => id === '')) return undefined;
  return feedback ? { kind: 'approve', hunks, feedback } : { kind: 'approve', hunks };
}

/**
 * Parses one scripted answer: `y`/`yes` approve once, `a`/`always` approve for the session every change of the same
 * action, `a:file` only later changes of the same files, `a:dir` only those under the same directories (`a:action`:
 * as `a`), `n`/`no` reject, `n:FEEDBACK` reject with feedback for the model, `h:h1+h3` (or `h:h1+h3:FEEDBACK`)
 * approve only those hunks, `e` write the user's own version (the step's scripted edit, or `$EDITOR`). Returns
 * `undefined` when the text is none of these.
 */
export function parseAnswer(text: string): PlaygroundAnswer | undefined {
  const colon = text.indexOf(':');
  const word = (colon === -1 ? text : text.slice(0, colon)).trim().toLowerCase();
  const kind = ANSWER_WORDS[word];
  if (kind === undefined) return undefined;
  if (kind === 'hunks') return colon === -1 ? undefined : parseHunks(text.slice(colon + 1));
  if (colon === -1) return { kind } as PlaygroundAnswer;
  if (kind === 'approve_for_session') {
    const scope = parseScope(text.slice(colon + 1));
    return scope === undefined ? undefined : { kind, scope };
  }
  // Feedback only goes with a rejection (or hunks): `y:thanks` is a mistake worth reporting.
  if (kind !== 'reject') return undefined;
  const feedback = text.slice(colon + 1).trim();
  return feedback ? { kind: 'reject', feedback } : { kind: 'reject' };
}

/**
 * Parses `--answers` values: each is a comma-separated list of answers (so feedback cannot contain a comma, and the
 * hunks of an `h:` answer are joined by `+`).
 */
export function parseAnswerList(
  values: readonly string[],
): { answers: PlaygroundAnswer[] } | { error: string } {
  const answers: PlaygroundAnswer[] = [];
  for (const value of values) {
    for (const item of value.split(',')) {
      const answer = parseAnswer(item);
      if (!answer) {
        return {
          error: `"${item.trim()}" is not an answer: use ${ANSWER_FORMS} (comma-separated, e.g. y,a,n:use tabs,h:h1+h3).`,
        };
      }
      answers.push(answer);
    }
  }
  return { answers };
}

/**
 * What an approval for the session covers, in the transcript's words: `files` are the request's files as shown
 * (`/`-separated), e.g. `src/todo.ts` or `everything under src/`; `undefined` for the whole action.
 */
export function scopeWords(scope: ApprovalScope | undefined, files: readonly string[]): string | undefined {
  if (scope === 'file') return files.length > 0 ? files.join(', ') : 'this file';
  if (scope !== 'directory') return undefined;
  const directories = [...new Set(files.map((file) => path.posix.dirname(file)))];
  if (directories.length === 0) return 'everything under its directory';
  return `everything under ${directories.map((directory) => `${directory}/`).join(', ')}`;
}

/** How an answer reads in the transcript; `files`: the request's files as shown, to name what a scope covers. */
export function describeAnswer(answer: ApprovalResponse, files: readonly string[] = []): string {
  const withFeedback = (text: string, feedback: string | undefined) =>
    feedback ? `${text}, with feedback "${feedback}"` : text;
  switch (answer.kind) {
    case 'approve':
      if (answer.hunks !== undefined) {
        const only =
          answer.hunks.length === 0 ? 'approve no hunk' : `approve hunks ${answer.hunks.join(', ')}`;
        return withFeedback(only, answer.feedback);
      }
      return withFeedback(
        answer.content === undefined ? 'approve' : 'approve your edited version',
        answer.feedback,
      );
    case 'approve_for_session': {
      const covered = scopeWords(answer.scope, files);
      return covered === undefined ? 'approve for this session' : `approve ${covered} for this session`;
    }
    case 'reject':
      return withFeedback('reject', answer.feedback);
  }
}

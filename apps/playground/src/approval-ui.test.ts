import { FileActions, type ApprovalRequest } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { PlaygroundApproval, type FallbackAnswerer } from './approval-ui.js';
import { createMemoryOutput } from './output.js';
import type { LinePrompter } from './terminal-prompt.js';

function request(action: ApprovalRequest['action'] = FileActions.EDIT): ApprovalRequest {
  return {
    sender: 'WriteFile',
    action,
    description: 'Write file `/w/a.txt`',
    display: [
      {
        type: 'diff',
        path: '/w/a.txt',
        oldText: 'old',
        newText: 'new',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ],
    path: '/w/a.txt',
  };
}

// A terminal whose user types the given lines, then closes the input.
function typing(lines: string[]): LinePrompter & { questions: string[] } {
  const questions: string[] = [];
  return {
    questions,
    interrupted: false,
    question: async (text) => {
      questions.push(text);
      return lines.shift() ?? null;
    },
    close: () => {},
  };
}

// `answers` are --answers entries: y, a, or anything else for a plain rejection.
function setup(options: { answers?: string[]; fallback?: FallbackAnswerer }) {
  const output = createMemoryOutput();
  const approval = new PlaygroundApproval({
    output,
    showPath: (p) => p.replace('/w/', ''),
    answers: (options.answers ?? []).map((text) =>
      text === 'y'
        ? { kind: 'approve' }
        : text === 'a'
          ? { kind: 'approve_for_session' }
          : { kind: 'reject' },
    ),
    fallback: options.fallback ?? { kind: 'auto', reason: 'no terminal' },
  });
  return { output, approval };
}

async function answer(approval: PlaygroundApproval, stepAnswer?: string, action?: ApprovalRequest['action']) {
  approval.beginStep(stepAnswer);
  const response = await approval.request(request(action));
  return { response, records: approval.endStep() };
}

describe('PlaygroundApproval', () => {
  it('prints the request with its diff, then the answer and where it came from', async () => {
    const { output, approval } = setup({});
    const { response, records } = await answer(approval);
    expect(response).toEqual({ kind: 'approve' });
    expect(records).toEqual([
      {
        action: 'edit file',
        description: 'Write file `/w/a.txt`',
        answer: { kind: 'approve' },
        source: 'auto: no terminal',
      },
    ]);
    expect(output.lines).toEqual([
      '  ┌ approval Write file `/w/a.txt`',
      '  │ action: edit file',
      '  │ --- a.txt',
      '  │ +++ a.txt',
      '  │ @@ -1,1 +1,1 @@',
      '  │ -old',
      '  │ +new',
      '  └ approve (auto: no terminal)',
    ]);
  });

  it("takes the step's answer first, then --answers in order, then the fallback", async () => {
    const { output, approval } = setup({ answers: ['n', 'y'] });
    expect((await answer(approval, 'n:use tabs')).response).toEqual({ kind: 'reject', feedback: 'use tabs' });
    expect((await answer(approval)).response).toEqual({ kind: 'reject' });
    expect(approval.unusedAnswers).toBe(1);
    expect((await answer(approval)).response).toEqual({ kind: 'approve' });
    expect((await answer(approval)).response).toEqual({ kind: 'approve' });
    expect(output.lines.filter((line) => line.startsWith('  └'))).toEqual([
      '  └ reject, with feedback "use tabs" (this step\'s scripted answer)',
      '  └ reject (--answers #1)',
      '  └ approve (--answers #2)',
      '  └ approve (auto: no terminal)',
    ]);
  });

  it('remembers "approve for session" per action, but a scripted rejection still applies', async () => {
    const { output, approval } = setup({ answers: ['a', 'n'] });
    expect((await answer(approval)).response).toEqual({ kind: 'approve_for_session' });
    // Same action: approved without using the next --answers entry.
    expect((await answer(approval)).response).toEqual({ kind: 'approve' });
    expect(approval.unusedAnswers).toBe(1);
    expect((await answer(approval, 'n:not this one')).response).toEqual({
      kind: 'reject',
      feedback: 'not this one',
    });
    // Another action is asked again.
    expect((await answer(approval, undefined, FileActions.EDIT_OUTSIDE)).response).toEqual({
      kind: 'reject',
    });
    expect(output.lines.filter((line) => line.startsWith('  └'))).toEqual([
      '  └ approve for this session (--answers #1)',
      '  └ approve ("edit file" was approved for this session)',
      '  └ reject, with feedback "not this one" (this step\'s scripted answer)',
      '  └ reject (--answers #2)',
    ]);
  });

  it('asks the terminal: y / a / n, then feedback after a plain n', async () => {
    const prompter = typing(['maybe', 'n', '  keep it short  ', 'N:inline feedback', 'A', 'yes']);
    const { output, approval } = setup({ fallback: { kind: 'interactive', prompter } });
    expect((await answer(approval)).response).toEqual({ kind: 'reject', feedback: 'keep it short' });
    expect(output.lines).toContain('  │ Please answer y, a or n.');
    expect(prompter.questions).toEqual([
      '  │ [y] approve  [a] approve for this session  [n] reject › ',
      '  │ [y] approve  [a] approve for this session  [n] reject › ',
      '  │ feedback for the model (Enter for none) › ',
    ]);
    expect((await answer(approval)).response).toEqual({ kind: 'reject', feedback: 'inline feedback' });
    expect(prompter.questions).toHaveLength(4);
    expect((await answer(approval)).response).toEqual({ kind: 'approve_for_session' });
    expect((await answer(approval, undefined, FileActions.EDIT_OUTSIDE)).response).toEqual({
      kind: 'approve',
    });
    expect(output.lines.filter((line) => line.startsWith('  └')).map((line) => line.slice(-6))).toEqual([
      ' (you)',
      ' (you)',
      ' (you)',
      ' (you)',
    ]);
  });

  it('rejects when the terminal input ends', async () => {
    const { output, approval } = setup({ fallback: { kind: 'interactive', prompter: typing([]) } });
    expect((await answer(approval)).response).toEqual({ kind: 'reject' });
    expect(output.lines.at(-1)).toBe('  └ reject (input ended)');
  });

  it('shows a change a permission rule decided, with the rule, and asks nothing', () => {
    const { output, approval } = setup({ answers: ['n'] });
    approval.beginStep(undefined);
    approval.decidedByRule(request(), { effect: 'allow', rule: 'allow Edit(src/**)' });
    approval.decidedByRule(request(), { effect: 'deny', rule: 'deny Edit(*.lock)' });
    expect(approval.endStep()).toEqual([]);
    expect(approval.unusedAnswers).toBe(1);
    expect(output.lines.filter((line) => !line.startsWith('  │ '))).toEqual([
      '  ┌ approval Write file `/w/a.txt`',
      '  └ allowed by the permission rule `allow Edit(src/**)`',
      '  ┌ approval Write file `/w/a.txt`',
      '  └ denied by the permission rule `deny Edit(*.lock)`',
    ]);
  });

  it('names the ask rule that sent a request, and asks it even after "approve for session"', async () => {
    const { output, approval } = setup({ answers: ['a', 'n'] });
    await answer(approval);
    approval.beginStep(undefined);
    const asked = await approval.request({ ...request(), rule: 'ask Edit(.github/**)' });
    expect(asked).toEqual({ kind: 'reject' });
    expect(approval.endStep()).toMatchObject([{ source: '--answers #2' }]);
    expect(output.lines.slice(-9, -1)).toEqual([
      '  ┌ approval Write file `/w/a.txt`',
      '  │ action: edit file',
      '  │ asked by the permission rule `ask Edit(.github/**)`',
      '  │ --- a.txt',
      '  │ +++ a.txt',
      '  │ @@ -1,1 +1,1 @@',
      '  │ -old',
      '  │ +new',
    ]);
    expect(output.lines.at(-1)).toBe('  └ reject (--answers #2)');
  });
});

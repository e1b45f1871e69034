import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileActions, type ApprovalRequest } from '@kimi-tools/core';
import { describe, expect, it, onTestFinished } from 'vitest';
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
    suspend: (task) => task(),
    close: () => {},
  };
}

/** A request of two hunks in /w/a.txt, whose proposal may be edited. */
function shapedRequest(): ApprovalRequest {
  const hunk = (id: string, oldStart: number, lines: string[]) => ({
    id,
    path: '/w/a.txt',
    oldStart,
    oldLines: 1,
    newStart: oldStart,
    newLines: 1,
    lines,
  });
  return {
    ...request(),
    hunks: [hunk('h1', 1, ['-one', '+ONE']), hunk('h2', 9, ['-nine', '+NINE'])],
    editable: [{ path: '/w/a.txt', size: 13, proposedText: () => 'ONE\n...\nNINE\n' }],
  };
}

// `answers` are --answers entries: y, a, or anything else for a plain rejection.
function setup(options: { answers?: string[]; fallback?: FallbackAnswerer; editor?: string }) {
  const output = createMemoryOutput();
  const approval = new PlaygroundApproval({
    output,
    showPath: (p) => p.replace('/w/', ''),
    answers: (options.answers ?? []).map((text) =>
      text === 'y'
        ? { kind: 'approve' }
        : text === 'a'
          ? { kind: 'approve_for_session' }
          : text === 'e'
            ? { kind: 'edit' }
            : { kind: 'reject' },
    ),
    fallback: options.fallback ?? { kind: 'auto', reason: 'no terminal' },
    ...(options.editor ? { editor: options.editor } : {}),
    resolvePath: (file) => path.join('/w', file),
  });
  return { output, approval };
}

async function answer(
  approval: PlaygroundApproval,
  stepAnswer?: string,
  action?: ApprovalRequest['action'] | ApprovalRequest,
  edits?: { path?: string; old: string; new: string }[],
) {
  approval.beginStep(stepAnswer, edits);
  const response = await approval.request(typeof action === 'object' ? action : request(action));
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
    const prompter = typing(['maybe', 'n', '  keep it short  ', 'N:inline feedback', 'A', '', 'yes']);
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

  it('asks what "approve for session" covers: this file, its directory, or the whole action', async () => {
    const prompter = typing(['a', 'x', 'f', 'a:dir']);
    const { output, approval } = setup({ fallback: { kind: 'interactive', prompter } });
    expect((await answer(approval)).response).toEqual({ kind: 'approve_for_session', scope: 'file' });
    expect(prompter.questions).toEqual([
      '  │ [y] approve  [a] approve for this session  [n] reject › ',
      '  │ approve for this session: [f] a.txt  [d] everything under ./  [a] every "edit file" (Enter) › ',
      '  │ approve for this session: [f] a.txt  [d] everything under ./  [a] every "edit file" (Enter) › ',
    ]);
    expect(output.lines).toContain('  │ Please answer f, d or a.');
    expect(output.lines.at(-1)).toBe('  └ approve a.txt for this session (you)');
    // The same file again: approved without asking.
    expect((await answer(approval)).response).toEqual({ kind: 'approve' });
    expect(output.lines.at(-1)).toBe('  └ approve (this file was approved for this session)');
    // Another file is asked; `a:dir` typed in one go needs no second question.
    const other = { ...request(), description: 'Write file `/w/src/b.txt`', path: '/w/src/b.txt' };
    expect((await answer(approval, undefined, other)).response).toEqual({
      kind: 'approve_for_session',
      scope: 'directory',
    });
    expect(prompter.questions).toHaveLength(4);
    expect(output.lines.at(-1)).toBe('  └ approve everything under src/ for this session (you)');
    const below = { ...request(), path: '/w/src/lib/c.txt', paths: ['/w/src/lib/c.txt', '/w/src/d.txt'] };
    expect((await answer(approval, undefined, below)).response).toEqual({ kind: 'approve' });
    expect(output.lines.at(-1)).toBe('  └ approve (their directories were approved for this session)');
  });

  it('takes a scoped "approve for session" from --answers and from the step, and asks the rest', async () => {
    const { output, approval } = setup({ answers: ['n'] });
    expect((await answer(approval, 'a:file')).response).toEqual({
      kind: 'approve_for_session',
      scope: 'file',
    });
    expect((await answer(approval)).response).toEqual({ kind: 'approve' });
    const other = { ...request(), path: '/w/b.txt' };
    expect((await answer(approval, undefined, other)).response).toEqual({ kind: 'reject' });
    // Another file is outside the scope: asked.
    expect(output.lines.filter((line) => line.startsWith('  └'))).toEqual([
      "  └ approve a.txt for this session (this step's scripted answer)",
      '  └ approve (this file was approved for this session)',
      '  └ reject (--answers #1)',
    ]);
  });

  it('says that no permission rule decided a request, when the runtime has rules', async () => {
    const output = createMemoryOutput();
    const approval = new PlaygroundApproval({
      output,
      showPath: (p) => p.replace('/w/', ''),
      answers: [],
      fallback: { kind: 'auto', reason: 'no terminal' },
      permissionRules: true,
    });
    approval.beginStep(undefined);
    await approval.request(request());
    await approval.request({ ...request(), rule: 'ask Edit(.github/**)' });
    approval.endStep();
    expect(output.lines.filter((line) => line.includes('rule'))).toEqual([
      '  │ no permission rule decided this change',
      '  │ asked by the permission rule `ask Edit(.github/**)`',
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

  it('asks hunk by hunk in the terminal, showing each, then feedback for the ones left out', async () => {
    const prompter = typing(['h', 'y', 'maybe', 'n', 'the old name stays']);
    const { output, approval } = setup({ fallback: { kind: 'interactive', prompter } });
    const { response, records } = await answer(approval, undefined, shapedRequest());
    expect(response).toEqual({ kind: 'approve', hunks: ['h1'], feedback: 'the old name stays' });
    expect(prompter.questions).toEqual([
      '  │ [y] approve  [a] approve for this session  [n] reject  [h] hunk by hunk  [e] edit › ',
      '  │ write hunk h1? [y/n] › ',
      '  │ write hunk h2? [y/n] › ',
      '  │ write hunk h2? [y/n] › ',
      '  │ feedback for the model (Enter for none) › ',
    ]);
    expect(output.lines).toEqual(
      expect.arrayContaining([
        '  │ hunks: h1 a.txt:1, h2 a.txt:9',
        '  │ hunk h1 a.txt, line 1',
        '  │   -one',
        '  │   +ONE',
        '  │ hunk h2 a.txt, line 9',
      ]),
    );
    expect(records[0]!.source).toBe('you');
    expect(output.lines.at(-1)).toBe('  └ approve hunks h1, with feedback "the old name stays" (you)');
  });

  it("writes a step's scripted edit of the proposal", async () => {
    const { output, approval } = setup({});
    const edits = [
      { path: 'a.txt', old: 'NINE', new: 'nine, as it was' },
      { old: 'ONE', new: 'One' },
    ];
    const { response } = await answer(approval, 'e', shapedRequest(), edits);
    expect(response).toEqual({ kind: 'approve', content: { '/w/a.txt': 'One\n...\nnine, as it was\n' } });
    expect(output.lines.at(-1)).toBe("  └ approve your edited version (this step's scripted answer)");
    const failed = await answer(approval, 'e', shapedRequest(), [{ old: 'TEN', new: 'ten' }]);
    expect(failed.response).toEqual({ kind: 'reject' });
    expect(output.lines.at(-1)).toBe(
      '  └ reject (this step\'s scripted answer; the edit failed: "TEN" is not in the proposal)',
    );
  });

  it('edits the proposal with $EDITOR, a real process', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'playground-editor-'));
    onTestFinished(() => fs.rm(dir, { recursive: true, force: true }));
    const script = path.join(dir, 'editor.cjs');
    // An "editor" that writes the user's change into the file it is given.
    await fs.writeFile(
      script,
      "const fs = require('fs'); const f = process.argv[2]; fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('NINE', 'nine'));",
    );
    const { approval } = setup({ answers: ['e'], editor: `"${process.execPath}" "${script}"` });
    const { response } = await answer(approval, undefined, shapedRequest());
    expect(response).toEqual({ kind: 'approve', content: { '/w/a.txt': 'ONE\n...\nnine\n' } });
  });

  it('says why it cannot edit without $EDITOR, and asks again', async () => {
    const prompter = typing(['e', 'y']);
    const { output, approval } = setup({ fallback: { kind: 'interactive', prompter } });
    expect((await answer(approval, undefined, shapedRequest())).response).toEqual({ kind: 'approve' });
    expect(output.lines).toContain('  │ Not edited: set $EDITOR (or $VISUAL) to edit the proposal.');
  });

  it('shows why an answer was refused when the request is asked again', async () => {
    const { output, approval } = setup({});
    await answer(approval, 'h:h3', {
      ...shapedRequest(),
      answerRefused: '"h3" is not a hunk of this change',
    });
    expect(output.lines).toContain(
      '  │ the answer was refused: "h3" is not a hunk of this change; asked again',
    );
  });
});

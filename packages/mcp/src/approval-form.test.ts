import { FileActions, type ApprovalRequest } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { approvalFromElicitation, approvalMessage, approvalSchema } from './approval-form.js';
import { FORM_CONTENT_MAX_BYTES } from './shaped-fields.js';

const request: ApprovalRequest = {
  sender: 'WriteFile',
  action: FileActions.EDIT_OUTSIDE,
  description: 'Write file `/tmp/x.txt`',
  display: [],
  path: '/tmp/x.txt',
};

describe('approval form', () => {
  it('names the tool, the action and the change', () => {
    expect(approvalMessage(request)).toBe(
      'WriteFile wants to edit file outside of working directory: Write file `/tmp/x.txt`\n\n(no diff to show)',
    );
  });

  it('names the ask rule that sent the request, or says no rule decided when the runtime has rules', () => {
    const asked = { ...request, rule: 'ask WriteFile(.github/**)' };
    expect(approvalMessage(asked)).toBe(
      'WriteFile wants to edit file outside of working directory: Write file `/tmp/x.txt`\n' +
        'Asked by the permission rule `ask WriteFile(.github/**)`.\n\n(no diff to show)',
    );
    expect(approvalMessage(asked, { permissionRules: true })).toBe(approvalMessage(asked));
    expect(approvalMessage(request, { permissionRules: true })).toBe(
      'WriteFile wants to edit file outside of working directory: Write file `/tmp/x.txt`\n' +
        'No permission rule decided this change.\n\n(no diff to show)',
    );
    // Without rules there is nothing to say of them.
    expect(approvalMessage(request, { permissionRules: false })).toBe(approvalMessage(request));
  });

  it('offers the three decisions, naming the action approve-for-session covers', () => {
    const decision = approvalSchema(request).properties.decision as {
      oneOf: Array<{ const: string; title: string }>;
    };
    expect(decision.oneOf).toEqual([
      { const: 'approve', title: 'Approve once' },
      {
        const: 'approve_for_session',
        title: 'Approve every "edit file outside of working directory" for this session',
      },
      { const: 'reject', title: 'Reject' },
    ]);
  });

  it('maps answers to approval responses', () => {
    expect(approvalFromElicitation({ action: 'accept', content: { decision: 'approve' } })).toEqual({
      kind: 'approve',
    });
    expect(
      approvalFromElicitation({ action: 'accept', content: { decision: 'approve_for_session' } }),
    ).toEqual({
      kind: 'approve_for_session',
    });
    expect(
      approvalFromElicitation({ action: 'accept', content: { decision: 'reject', feedback: ' no ' } }),
    ).toEqual({
      kind: 'reject',
      feedback: 'no',
    });
    expect(
      approvalFromElicitation({ action: 'accept', content: { decision: 'reject', feedback: '   ' } }),
    ).toEqual({
      kind: 'reject',
    });
    expect(approvalFromElicitation({ action: 'decline' })).toEqual({ kind: 'reject' });
    expect(approvalFromElicitation({ action: 'cancel' })).toEqual({ kind: 'reject' });
  });

  it('finds an accepted form without a known decision malformed, whatever its feedback', () => {
    expect(
      approvalFromElicitation({ action: 'accept', content: { decision: 'yes', feedback: 'do it' } }),
    ).toBeUndefined();
    expect(approvalFromElicitation({ action: 'accept', content: { feedback: 'do it' } })).toBeUndefined();
    expect(approvalFromElicitation({ action: 'accept' })).toBeUndefined();
  });

  describe('shaped approvals', () => {
    const hunk = (id: string, oldStart: number, path = '/w/a.txt') => ({
      id,
      path,
      oldStart,
      oldLines: 1,
      newStart: oldStart,
      newLines: 1,
      lines: [],
    });
    const shaped = (proposal = 'ONE\r\n...\r\nNINE\r\n'): ApprovalRequest => ({
      ...request,
      hunks: [hunk('h1', 1), hunk('h2', 9)],
      editable: [{ path: '/w/a.txt', size: Buffer.byteLength(proposal), proposedText: () => proposal }],
    });

    it('offers the hunks as a multi-select, all selected, and the proposal as text, on 2025-11-25', () => {
      const schema = approvalSchema(shaped(), '2025-11-25');
      expect(Object.keys(schema.properties)).toEqual(['decision', 'feedback', 'hunks', 'content']);
      expect(schema.properties.hunks).toEqual({
        type: 'array',
        title: 'Hunks to write',
        description:
          'With "Approve once": the hunks of the change to write; those left out are not written. All are selected.',
        items: {
          anyOf: [
            { const: 'h1', title: 'h1: /w/a.txt, line 1' },
            { const: 'h2', title: 'h2: /w/a.txt, line 9' },
          ],
        },
        default: ['h1', 'h2'],
      });
      expect(schema.properties.content).toEqual({
        type: 'string',
        title: 'Your version',
        description:
          'With "Approve once": the whole new content of the file. Change it to write your version instead of the proposal.',
        default: 'ONE\r\n...\r\nNINE\r\n',
      });
    });

    it("shows each hunk's path in its shown form, so a terminal escape in a name never reaches the user raw", () => {
      const named = '/w/b\u001b[2K\rX.txt';
      const schema = approvalSchema({ ...request, hunks: [hunk('h1', 1, named), hunk('h2', 3, named)] });
      expect(schema.properties.hunks).toMatchObject({
        items: {
          anyOf: [
            { const: 'h1', title: 'h1: "/w/b\\u001b[2K\\rX.txt", line 1' },
            { const: 'h2', title: 'h2: "/w/b\\u001b[2K\\rX.txt", line 3' },
          ],
        },
      });
    });

    it('gives an older client no hunks and an empty text field; one hunk, several files or a big file no field', () => {
      const legacy = approvalSchema(shaped(), '2025-06-18');
      expect(Object.keys(legacy.properties)).toEqual(['decision', 'feedback', 'content']);
      expect(legacy.properties.content).not.toHaveProperty('default');
      const oneHunk = approvalSchema({ ...shaped(), hunks: [hunk('h1', 1)] });
      expect(Object.keys(oneHunk.properties)).toEqual(['decision', 'feedback', 'content']);
      const twoFiles = approvalSchema({ ...shaped(), hunks: [hunk('h1', 1), hunk('h2', 1, '/w/b.txt')] });
      expect(Object.keys(twoFiles.properties)).toEqual(['decision', 'feedback', 'hunks']);
      const big = approvalSchema(shaped('x'.repeat(FORM_CONTENT_MAX_BYTES + 1)));
      expect(Object.keys(big.properties)).toEqual(['decision', 'feedback', 'hunks']);
    });

    it('asks why hunks were left out only in a form that offers hunks', () => {
      const feedback = (form: ReturnType<typeof approvalSchema>) => form.properties.feedback;
      const withHunks = {
        type: 'string',
        title: 'Feedback',
        description:
          'Optional: tell the agent why you reject the change or leave hunks out, or what to do instead.',
      };
      const withoutHunks = {
        type: 'string',
        title: 'Feedback',
        description: 'Optional: tell the agent why you reject the change, or what to do instead.',
      };
      expect(feedback(approvalSchema(shaped(), '2025-11-25'))).toEqual(withHunks);
      expect(feedback(approvalSchema(request))).toEqual(withoutHunks);
      expect(feedback(approvalSchema({ ...shaped(), hunks: [hunk('h1', 1)] }))).toEqual(withoutHunks);
      // Two hunks, but a client too old for a multi-select: no hunk field.
      expect(feedback(approvalSchema(shaped(), '2025-06-18'))).toEqual(withoutHunks);
    });

    it('reads the hunks selected and the text changed, with the feedback', () => {
      const accept = (content: Record<string, string | string[]>) =>
        approvalFromElicitation({ action: 'accept', content: { decision: 'approve', ...content } }, shaped());
      expect(accept({ hunks: ['h2'], feedback: ' keep h1 out ' })).toEqual({
        kind: 'approve',
        hunks: ['h2'],
        feedback: 'keep h1 out',
      });
      expect(accept({ hunks: [] })).toEqual({ kind: 'approve', hunks: [] });
      expect(accept({ hunks: ['h2', 'h1'] })).toEqual({ kind: 'approve' });
      expect(accept({ content: 'ONE\n...\nNINE\n', hunks: ['h1', 'h2'] })).toEqual({ kind: 'approve' });
      expect(accept({ content: '' })).toEqual({ kind: 'approve' });
      expect(accept({ content: 'mine\n', hunks: ['h1'] })).toEqual({ kind: 'approve', content: 'mine\n' });
      expect(accept({ hunks: ['h3'] })).toBeUndefined();
      const noContent = approvalFromElicitation(
        { action: 'accept', content: { decision: 'approve', content: 'mine' } },
        { ...shaped(), editable: [] },
      );
      expect(noContent).toBeUndefined();
    });
  });
});

import { FileActions, type ApprovalRequest } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { approvalFromElicitation, approvalMessage, approvalSchema } from './approval-form.js';

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
});

import type { ApprovalRequest, ApprovalResponse } from '@kimi-tools/core';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { formatDiffText } from './diff-text.js';

/** The values of the form's `decision` field. */
export const APPROVAL_DECISIONS = ['approve', 'approve_for_session', 'reject'] as const;

/**
 * The message of an approval form: what the tool wants to do, the action (which "approve for session" covers),
 * and the diff of exactly the change that will be written.
 */
export function approvalMessage(request: ApprovalRequest): string {
  const diff = request.display.length > 0 ? formatDiffText(request.display) : '(no diff to show)';
  return `${request.sender} wants to ${request.action}: ${request.description}\n\n${diff}`;
}

/** The form fields: a required decision and optional feedback for the agent. */
export function approvalSchema(request: ApprovalRequest): ElicitRequestFormParams['requestedSchema'] {
  return {
    type: 'object',
    properties: {
      decision: {
        type: 'string',
        title: 'Decision',
        description: `Approve this change once, approve every "${request.action}" change for the rest of this session, or reject it.`,
        oneOf: [
          { const: 'approve', title: 'Approve once' },
          { const: 'approve_for_session', title: `Approve every "${request.action}" for this session` },
          { const: 'reject', title: 'Reject' },
        ],
      },
      feedback: {
        type: 'string',
        title: 'Feedback',
        description: 'Optional, when rejecting: tell the agent what to do instead.',
      },
    },
    required: ['decision'],
  };
}

/** The approval a client's answer to the form means. Declining or cancelling the form rejects the change. */
export function approvalFromElicitation(result: ElicitResult): ApprovalResponse {
  if (result.action !== 'accept') return { kind: 'reject' };
  const decision = result.content?.decision;
  if (decision === 'approve') return { kind: 'approve' };
  if (decision === 'approve_for_session') return { kind: 'approve_for_session' };
  const feedback = result.content?.feedback;
  const text = typeof feedback === 'string' ? feedback.trim() : '';
  return text ? { kind: 'reject', feedback: text } : { kind: 'reject' };
}

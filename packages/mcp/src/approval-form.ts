import type { ApprovalRequest, ApprovalResponse } from '@kimi-tools/core';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { formatDiffText } from './diff-text.js';
import { fitText, MESSAGE_CONTENT_BYTES } from './message-budget.js';
import { shapedChoice, shapedFields } from './shaped-fields.js';

/** The values of the form's `decision` field. */
export const APPROVAL_DECISIONS = ['approve', 'approve_for_session', 'reject'] as const;

/** Options of {@link approvalMessage}. */
export interface ApprovalMessageOptions {
  /** Whether the runtime has permission rules: the message then says when none of them decided the change. */
  permissionRules?: boolean;
}

/** The line that says why the user is asked: the `ask` rule that sent the request, or that no rule decided it. */
function ruleLine(request: ApprovalRequest, permissionRules: boolean): string {
  if (request.rule !== undefined) return `\nAsked by the permission rule \`${request.rule}\`.`;
  return permissionRules ? '\nNo permission rule decided this change.' : '';
}

/**
 * The message of an approval form: what the tool wants to do, the action (which "approve for session" covers), which
 * permission rule decided to ask (docs/permissions.md#changes), and the diff of exactly the change that will be
 * written; cut to fit in one MCP message.
 */
export function approvalMessage(request: ApprovalRequest, options: ApprovalMessageOptions = {}): string {
  const diff = request.display.length > 0 ? formatDiffText(request.display) : '(no diff to show)';
  const rule = ruleLine(request, options.permissionRules === true);
  return fitText(
    `${request.sender} wants to ${request.action}: ${request.description}${rule}\n\n${diff}`,
    MESSAGE_CONTENT_BYTES,
  );
}

/** The first protocol version whose forms have titled enums as `oneOf`/`const` (before it: `enum` + `enumNames`). */
const TITLED_ONE_OF_SINCE = '2025-11-25';

/**
 * The form fields: a required decision and optional feedback for the agent, then the fields that shape an approval
 * where the change and the protocol allow them (`hunks`, a multi-select; `content`, the user's version of one small
 * file). The decision's choices are worded as the negotiated `protocolVersion` defines titled enums (`undefined`: the
 * latest form).
 */
export function approvalSchema(
  request: ApprovalRequest,
  protocolVersion?: string,
): ElicitRequestFormParams['requestedSchema'] {
  const choices = [
    { value: 'approve', title: 'Approve once' },
    { value: 'approve_for_session', title: `Approve every "${request.action}" for this session` },
    { value: 'reject', title: 'Reject' },
  ] as const;
  // Protocol versions are dates, so they compare as strings.
  const legacy = protocolVersion !== undefined && protocolVersion < TITLED_ONE_OF_SINCE;
  const options = legacy
    ? { enum: choices.map((choice) => choice.value), enumNames: choices.map((choice) => choice.title) }
    : { oneOf: choices.map((choice) => ({ const: choice.value, title: choice.title })) };
  const shaped = shapedFields(request, protocolVersion);
  // Leaving hunks out is asked about only where the form offers the hunks to leave out.
  const reasons =
    'hunks' in shaped ? 'why you reject the change or leave hunks out' : 'why you reject the change';
  return {
    type: 'object',
    properties: {
      decision: {
        type: 'string',
        title: 'Decision',
        description: `Approve this change once, approve every "${request.action}" change for the rest of this session, or reject it.`,
        ...options,
      },
      feedback: {
        type: 'string',
        title: 'Feedback',
        description: `Optional: tell the agent ${reasons}, or what to do instead.`,
      },
      ...shaped,
    },
    required: ['decision'],
  };
}

/**
 * The approval a client's answer to the form for `request` means. Declining or cancelling the form rejects the
 * change. "Approve once" writes the hunks selected (all: the whole change) or, when the user changed the text of their
 * version, that text; feedback goes with an approval too. An accepted form without one of the three decisions, or
 * with hunks or content the form did not offer, is malformed (`undefined`): its feedback is not the user's word.
 * Without `request`, hunks and content are not read.
 */
export function approvalFromElicitation(
  result: ElicitResult,
  request?: ApprovalRequest,
): ApprovalResponse | undefined {
  if (result.action !== 'accept') return { kind: 'reject' };
  const decision = result.content?.decision;
  const feedback = result.content?.feedback;
  const text = typeof feedback === 'string' ? feedback.trim() : '';
  if (decision === 'approve') {
    const choice = request && result.content ? shapedChoice(request, result.content) : {};
    if (choice === undefined) return undefined;
    return { kind: 'approve', ...choice, ...(text ? { feedback: text } : {}) };
  }
  if (decision === 'approve_for_session') return { kind: 'approve_for_session' };
  if (decision !== 'reject') return undefined;
  return text ? { kind: 'reject', feedback: text } : { kind: 'reject' };
}

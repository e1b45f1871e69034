import type { ApprovalRequest } from '../approval/approval.js';
import { APPROVAL_ASKS, invalidAnswerMessage } from '../approval/answer-messages.js';
import { judgeByRules, type ApprovalTarget } from '../approval/ask-approval.js';
import { Briefs, type InvalidAnswerBrief, type PermissionBrief, type RejectedBrief } from '../errors.js';
import { toolError, toolRejected, type ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import type { ReviewedFile } from './reviewed-file.js';
import { shapeAnswer, type ShapedFile } from './shape-answer.js';

/** The user's decision on a change, as the write goes on with it. */
export type ApprovalDecision =
  /** Rejected, or answered in a way that cannot be applied: return `result` as is, nothing is written. */
  | { kind: 'refused'; result: ToolReturnValue<RejectedBrief | InvalidAnswerBrief | PermissionBrief> }
  /** Approved: what to write of each reviewed file, and what the model is told of the answer (`''`: nothing). */
  | { kind: 'approved'; files: ShapedFile[]; note: string };

/**
 * The one place a write tool's change asks to go ahead. The permission rules judge it first, on `targets` (the files
 * as the model gave them; docs/permissions.md#changes): a deny refuses it, an allow writes the proposal without
 * asking. Otherwise the runtime's approval is asked and its answer read (docs/approval.md#answers): a rejection, a
 * plain approval, or one shaped by hunks or content. An answer that cannot be applied is refused to the host: the
 * same request is asked again with `answerRefused` saying why, and after {@link APPROVAL_ASKS} such answers the call
 * fails with nothing written.
 */
export async function askShapedApproval(
  runtime: ToolRuntime,
  request: ApprovalRequest,
  files: readonly ReviewedFile[],
  targets: readonly ApprovalTarget[],
  signal: AbortSignal | undefined,
): Promise<ApprovalDecision> {
  const judged = await judgeByRules(runtime, request, targets);
  if (judged.kind === 'deny') return { kind: 'refused', result: judged.result };
  if (judged.kind === 'allow') {
    return { kind: 'approved', files: files.map(() => ({ how: 'proposed' })), note: '' };
  }
  const ruled = judged.request;
  let asked = ruled;
  for (let attempt = 1; ; attempt++) {
    const response = await runtime.approval.request(asked, signal);
    if (response.kind === 'reject') return { kind: 'refused', result: toolRejected(response.feedback) };
    if (response.kind === 'approve_for_session') {
      return { kind: 'approved', files: files.map(() => ({ how: 'proposed' })), note: '' };
    }
    const shaped = shapeAnswer(ruled, files, response, runtime.diffBudgetMs);
    if (shaped.kind === 'rejected') return { kind: 'refused', result: toolRejected(shaped.feedback) };
    if (shaped.kind === 'approved') return shaped;
    if (attempt >= APPROVAL_ASKS) {
      return {
        kind: 'refused',
        result: toolError({
          message: invalidAnswerMessage(shaped.reason),
          brief: Briefs.invalidApprovalAnswer,
        }),
      };
    }
    signal?.throwIfAborted();
    asked = { ...ruled, answerRefused: shaped.reason };
  }
}

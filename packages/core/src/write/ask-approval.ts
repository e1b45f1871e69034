import type { ApprovalRequest } from '../approval/approval.js';
import { APPROVAL_ASKS, invalidAnswerMessage } from '../approval/answer-messages.js';
import { Briefs, type InvalidAnswerBrief, type RejectedBrief } from '../errors.js';
import { toolError, toolRejected, type ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import type { ReviewedFile } from './reviewed-file.js';
import { shapeAnswer, type ShapedFile } from './shape-answer.js';

/** The user's decision on a change, as the write goes on with it. */
export type ApprovalDecision =
  /** Rejected, or answered in a way that cannot be applied: return `result` as is, nothing is written. */
  | { kind: 'refused'; result: ToolReturnValue<RejectedBrief | InvalidAnswerBrief> }
  /** Approved: what to write of each reviewed file, and what the model is told of the answer (`''`: nothing). */
  | { kind: 'approved'; files: ShapedFile[]; note: string };

/**
 * Asks the runtime's approval about a change to `files` and reads the answer (docs/approval.md#answers): a
 * rejection, a plain approval, or one shaped by hunks or content. An answer that cannot be applied is refused to the
 * host: the same request is asked again with `answerRefused` saying why, and after {@link APPROVAL_ASKS} such
 * answers the call fails with nothing written.
 */
export async function askApproval(
  runtime: ToolRuntime,
  request: ApprovalRequest,
  files: readonly ReviewedFile[],
  signal: AbortSignal | undefined,
): Promise<ApprovalDecision> {
  let asked = request;
  for (let attempt = 1; ; attempt++) {
    const response = await runtime.approval.request(asked, signal);
    if (response.kind === 'reject') return { kind: 'refused', result: toolRejected(response.feedback) };
    if (response.kind === 'approve_for_session') {
      return { kind: 'approved', files: files.map(() => ({ how: 'proposed' })), note: '' };
    }
    const shaped = shapeAnswer(request, files, response, runtime.diffBudgetMs);
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
    asked = { ...request, answerRefused: shaped.reason };
  }
}

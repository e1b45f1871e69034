import type { Approval, ApprovalRequest, ApprovalResponse } from '@kimi-tools/core';

/** How a {@link recordingApproval} answers: the same response every time, or a function of the request. */
export type ApprovalScript =
  | ApprovalResponse
  | ((request: ApprovalRequest, signal?: AbortSignal) => ApprovalResponse | Promise<ApprovalResponse>);

/** What a permission rule decided without asking, as the approval was told of it (`decidedByRule`). */
export type RecordedRuleDecision = Parameters<NonNullable<Approval['decidedByRule']>>[1] & {
  request: ApprovalRequest;
};

/** An approval that keeps every request it was asked, in order. */
export interface RecordingApproval extends Approval {
  /** Every request so far, oldest first (the array is live: it grows as tools ask). */
  readonly requests: ApprovalRequest[];
  /** Every change a permission rule allowed or denied without asking, oldest first (live too). */
  readonly decisions: RecordedRuleDecision[];
}

/** An approval that records every request and answers as `script` says: approve, unless told otherwise. */
export function recordingApproval(script: ApprovalScript = { kind: 'approve' }): RecordingApproval {
  const requests: ApprovalRequest[] = [];
  const decisions: RecordedRuleDecision[] = [];
  return {
    requests,
    decisions,
    request: async (request, signal) => {
      requests.push(request);
      return typeof script === 'function' ? script(request, signal) : script;
    },
    decidedByRule: (request, decision) => {
      decisions.push({ ...decision, request });
    },
  };
}

import type { Approval, ApprovalRequest, ApprovalResponse } from '@kimi-tools/core';

/** How a {@link recordingApproval} answers: the same response every time, or a function of the request. */
export type ApprovalScript =
  | ApprovalResponse
  | ((request: ApprovalRequest, signal?: AbortSignal) => ApprovalResponse | Promise<ApprovalResponse>);

/** An approval that keeps every request it was asked, in order. */
export interface RecordingApproval extends Approval {
  /** Every request so far, oldest first (the array is live: it grows as tools ask). */
  readonly requests: ApprovalRequest[];
}

/** An approval that records every request and answers as `script` says: approve, unless told otherwise. */
export function recordingApproval(script: ApprovalScript = { kind: 'approve' }): RecordingApproval {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    request: async (request, signal) => {
      requests.push(request);
      return typeof script === 'function' ? script(request, signal) : script;
    },
  };
}

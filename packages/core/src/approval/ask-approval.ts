import type { PermissionBrief, RejectedBrief } from '../errors.js';
import { deniedByRuleError } from '../permissions/denied-by-rule.js';
import { toolRejected, type ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import type { ApprovalRequest } from './approval.js';

/** A file a change concerns: its real path, and the path as the model gave it (a denial quotes that one). */
export interface ApprovalTarget {
  real: string;
  input: string;
}

/** Whether a change may go ahead, or the result to return as is (a deny rule's refusal, or the user's rejection). */
export type ApprovalOutcome =
  { approved: true } | { approved: false; result: ToolReturnValue<RejectedBrief | PermissionBrief> };

/**
 * The one place a change asks to go ahead (docs/approval.md, docs/permissions.md#changes). The runtime's permission
 * rules judge it first, as an edit by `request.sender`, on every file of `targets`: a `deny` refuses it (quoting the
 * file as the model gave it, and the rule), an `allow` approves it without asking, and both are told to the approval's
 * `decidedByRule`; otherwise the runtime's approval is asked, with the `ask` rule that decided in `request.rule`. A
 * change to several files carries every real path in `request.paths`.
 */
export async function askApproval(
  runtime: Pick<ToolRuntime, 'approval' | 'permissions' | 'paths'>,
  request: ApprovalRequest,
  targets: readonly ApprovalTarget[],
  signal?: AbortSignal,
): Promise<ApprovalOutcome> {
  const reals = [...new Set(targets.map((target) => target.real))];
  const full: ApprovalRequest = reals.length > 1 ? { ...request, paths: reals } : request;
  const decision = runtime.permissions.isEmpty
    ? undefined
    : runtime.permissions.judge(
        { name: request.sender, access: 'edit' },
        reals,
        await runtime.paths.workspaceRoots(),
      );
  if (decision?.effect === 'allow' || decision?.effect === 'deny') {
    runtime.approval.decidedByRule?.(full, { effect: decision.effect, rule: decision.rule });
    if (decision.effect === 'allow') return { approved: true };
    const target = targets.find((each) => each.real === decision.path) ?? targets[0]!;
    return { approved: false, result: deniedByRuleError(target.input, decision.rule) };
  }
  const asked = decision ? { ...full, rule: decision.rule } : full;
  const response = await runtime.approval.request(asked, signal);
  if (response.kind === 'reject') return { approved: false, result: toolRejected(response.feedback) };
  return { approved: true };
}

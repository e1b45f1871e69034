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

/** What the permission rules make of a change: refused, allowed without asking, or the request to ask. */
export type RuleJudgement =
  | { kind: 'deny'; result: ToolReturnValue<PermissionBrief> }
  | { kind: 'allow' }
  | { kind: 'ask'; request: ApprovalRequest };

/**
 * The permission rules' part of asking (docs/permissions.md#changes): the runtime's rules judge the change as an edit
 * by `request.sender`, on every file of `targets`. A `deny` refuses it (quoting the file as the model gave it, and the
 * rule), an `allow` approves it without asking, and both are told to the approval's `decidedByRule`; otherwise the
 * request to ask, with the `ask` rule that decided in `request.rule`. A change to several files carries every real
 * path in `request.paths`.
 */
export async function judgeByRules(
  runtime: Pick<ToolRuntime, 'approval' | 'permissions' | 'paths'>,
  request: ApprovalRequest,
  targets: readonly ApprovalTarget[],
): Promise<RuleJudgement> {
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
    if (decision.effect === 'allow') return { kind: 'allow' };
    const target = targets.find((each) => each.real === decision.path) ?? targets[0]!;
    return { kind: 'deny', result: deniedByRuleError(target.input, decision.rule) };
  }
  return { kind: 'ask', request: decision ? { ...full, rule: decision.rule } : full };
}

/**
 * Asks whether a change may go ahead as a whole (Rewind; the write tools ask through `askShapedApproval`, whose
 * answers may keep some hunks): the permission rules first ({@link judgeByRules}), then the runtime's approval. An
 * answer shaped by hunks or content is taken as a plain approval here.
 */
export async function askApproval(
  runtime: Pick<ToolRuntime, 'approval' | 'permissions' | 'paths'>,
  request: ApprovalRequest,
  targets: readonly ApprovalTarget[],
  signal?: AbortSignal,
): Promise<ApprovalOutcome> {
  const judged = await judgeByRules(runtime, request, targets);
  if (judged.kind === 'deny') return { approved: false, result: judged.result };
  if (judged.kind === 'allow') return { approved: true };
  const response = await runtime.approval.request(judged.request, signal);
  if (response.kind === 'reject') return { approved: false, result: toolRejected(response.feedback) };
  return { approved: true };
}

import type { DiffDisplayBlock } from '../result/tool-result.js';
import type { FileAction } from './file-actions.js';

/** What a tool asks the user before it changes something. */
export interface ApprovalRequest {
  /** The tool's name, e.g. `WriteFile`. */
  sender: string;
  action: FileAction;
  /** e.g. ``Write file `/work/a.txt` ``. */
  description: string;
  /** The diff of exactly the change that will be written. */
  display: DiffDisplayBlock[];
  /** Real path of the file concerned. */
  path: string;
}

/** The user's answer. `approve_for_session` also approves later requests with the same action. */
export type ApprovalResponse =
  { kind: 'approve' } | { kind: 'approve_for_session' } | { kind: 'reject'; feedback?: string };

/** Decides whether a change may go ahead. */
export interface Approval {
  request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse>;
}

/** Approves everything without asking (tests, sandboxes, `--yolo`). */
export function yoloApproval(): Approval {
  return { request: async () => ({ kind: 'approve' }) };
}

/** Rejects everything (read-only agents). */
export function rejectAllApproval(feedback?: string): Approval {
  return {
    request: async () => (feedback === undefined ? { kind: 'reject' } : { kind: 'reject', feedback }),
  };
}

/** The UI callback a {@link SessionApproval} asks when it has no standing answer. */
export type AskUser = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalResponse>;

/**
 * Asks the user through `ask`, and remembers "approve for session" per action: once given, later
 * requests with that action are approved without asking. One instance is one session's memory.
 */
export class SessionApproval implements Approval {
  private readonly approvedActions = new Set<FileAction>();

  constructor(private readonly ask: AskUser) {}

  async request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> {
    if (this.approvedActions.has(request.action)) return { kind: 'approve' };
    const response = await this.ask(request, signal);
    if (response.kind === 'approve_for_session') this.approvedActions.add(request.action);
    return response;
  }

  /** Whether `action` is approved for the rest of the session. */
  isApprovedForSession(action: FileAction): boolean {
    return this.approvedActions.has(action);
  }

  /** Forgets every approve-for-session answer. */
  reset(): void {
    this.approvedActions.clear();
  }
}

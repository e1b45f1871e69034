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
  /**
   * The change as hunks, in the order of the diff blocks (one per block), for an answer that approves only some of
   * them (docs/approval.md#per-hunk-answers). Absent where a change can only be taken whole (a streamed edit).
   */
  hunks?: ApprovalHunk[];
  /** The files whose new content the user may replace with their own (docs/approval.md#edit-before-accept). */
  editable?: EditableFile[];
  /**
   * Set when the request is asked again because the answer to it could not be applied: why (docs/approval.md#answers-refused).
   */
  answerRefused?: string;
}

/**
 * One hunk of a change: old lines `[oldStart, oldStart + oldLines)` become new lines `[newStart, newStart + newLines)`
 * (1-based, context included); `lines` as its diff block shows them, each marked ` `, `-` or `+`.
 */
export interface ApprovalHunk {
  /** Stable within the request: `h1`, `h2`, ... in the order of the diff blocks. */
  id: string;
  /** Real path of the file (a moved file's new path). */
  path: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** A file of a change whose proposed new content the user may edit before accepting. */
export interface EditableFile {
  /** Real path of the file (a moved file's new path): its key in an answer's `content`. */
  readonly path: string;
  /** Bytes of the proposed content, as it would be written (a host may offer only small files for editing). */
  readonly size: number;
  /** The proposed new content as text: decoded, with its own line endings, without a BOM (made when first asked). */
  proposedText(): string;
}

/** New content given by the user: text (written in the file's encoding and line endings) or the exact bytes. */
export type ApprovalContent = string | Uint8Array;

/**
 * "Yes", possibly shaped (docs/approval.md#answers): `hunks` approves only those hunks (`[]` rejects the change,
 * every id is a plain approval); `content` writes the user's own version instead of the proposal (one text or bytes
 * for a one-file change, or by real path); `feedback` is passed on to the model. `hunks` and `content` exclude each
 * other.
 */
export interface ApproveResponse {
  kind: 'approve';
  hunks?: readonly string[];
  content?: ApprovalContent | Readonly<Record<string, ApprovalContent>>;
  feedback?: string;
}

/** The user's answer. `approve_for_session` also approves later requests with the same action. */
export type ApprovalResponse =
  ApproveResponse | { kind: 'approve_for_session' } | { kind: 'reject'; feedback?: string };

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

import { isWithinDirectory } from '../path/containment.js';
import { pathApiFor } from '../path/platform-path.js';
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
  /** Real path of the file concerned (of a change to several files: the first one). */
  path: string;
  /** Every real path a change to several files concerns (ApplyPatch, Rewind); absent when it concerns `path` alone. */
  paths?: string[];
  /**
   * The `ask` permission rule that sent this request to the user, as written (docs/permissions.md); absent when no
   * rule decided. Such a request is asked even when an earlier answer approved its kind for the session.
   */
  rule?: string;
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

/** What an "approve for session" answer covers from then on (docs/approval.md#answers). */
export type ApprovalScope = 'file' | 'directory' | 'action';

/**
 * The user's answer. `approve_for_session` also approves later requests: with the same action (`scope: 'action'`,
 * the default), or with the same action on the same files (`'file'`) or within the same directories (`'directory'`).
 */
export type ApprovalResponse =
  | ApproveResponse
  | { kind: 'approve_for_session'; scope?: ApprovalScope }
  | { kind: 'reject'; feedback?: string };

/** What a permission rule decided about a change without asking: `rule` as the user wrote it. */
export interface RuleDecision {
  effect: 'allow' | 'deny';
  rule: string;
}

/** Decides whether a change may go ahead. */
export interface Approval {
  request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse>;
  /**
   * Told, when the host gives it, of each change a permission rule allowed or denied without asking (so the host can
   * show the change and the rule); `request` is what would have been asked.
   */
  decidedByRule?(request: ApprovalRequest, decision: RuleDecision): void;
}

/** Every real path `request` concerns: its `paths`, or its `path` alone. */
function requestPaths(request: ApprovalRequest): readonly string[] {
  return request.paths ?? [request.path];
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

/** Options of {@link SessionApproval}. */
export interface SessionApprovalOptions {
  /** Path rules of the requests' paths (default: this process's): `win32` compares directories case-insensitively. */
  platform?: NodeJS.Platform;
}

/**
 * Asks the user through `ask`, and remembers "approve for session" answers (docs/approval.md#answers): per action
 * (`scope: 'action'`, the default), per file, or per directory (the directory of each file and everything under it),
 * each under the request's action. A later request they cover is approved without asking, unless an `ask` permission
 * rule sent it (`request.rule`). An answer with a scope it does not know approves that one request only. One instance
 * is one session's memory.
 */
export class SessionApproval implements Approval {
  private readonly approvedActions = new Set<FileAction>();
  private readonly approvedFiles = new Map<FileAction, Set<string>>();
  private readonly approvedDirectories = new Map<FileAction, string[]>();
  private readonly platform: NodeJS.Platform;

  constructor(
    private readonly ask: AskUser,
    options: SessionApprovalOptions = {},
  ) {
    this.platform = options.platform ?? process.platform;
  }

  async request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> {
    if (request.rule === undefined && this.approvedScope(request) !== undefined) return { kind: 'approve' };
    const response = await this.ask(request, signal);
    if (response.kind === 'approve_for_session') this.remember(request, response.scope ?? 'action');
    return response;
  }

  /** Whether `action` is approved for the rest of the session (an answer with `scope: 'action'`). */
  isApprovedForSession(action: FileAction): boolean {
    return this.approvedActions.has(action);
  }

  /** Which remembered answer covers `request` (the widest: action, then directory, then file), or `undefined`. */
  approvedScope(request: ApprovalRequest): ApprovalScope | undefined {
    if (this.approvedActions.has(request.action)) return 'action';
    const paths = requestPaths(request);
    if (paths.length === 0) return undefined;
    const directories = this.approvedDirectories.get(request.action) ?? [];
    const inDirectory = (file: string) =>
      directories.some((directory) => isWithinDirectory(file, directory, this.platform));
    if (paths.every(inDirectory)) return 'directory';
    const files = this.approvedFiles.get(request.action);
    if (files && paths.every((file) => files.has(this.key(file)))) return 'file';
    return undefined;
  }

  /** Forgets every approve-for-session answer. */
  reset(): void {
    this.approvedActions.clear();
    this.approvedFiles.clear();
    this.approvedDirectories.clear();
  }

  private remember(request: ApprovalRequest, scope: ApprovalScope): void {
    const { action } = request;
    if (scope === 'action') {
      this.approvedActions.add(action);
    } else if (scope === 'file') {
      const files = this.approvedFiles.get(action) ?? new Set<string>();
      for (const file of requestPaths(request)) files.add(this.key(file));
      this.approvedFiles.set(action, files);
    } else if (scope === 'directory') {
      const pathApi = pathApiFor(this.platform);
      const directories = this.approvedDirectories.get(action) ?? [];
      directories.push(...requestPaths(request).map((file) => pathApi.dirname(file)));
      this.approvedDirectories.set(action, directories);
    }
  }

  /** A file's identity: its path, folded to lower case where names compare without case. */
  private key(file: string): string {
    return this.platform === 'win32' ? file.toLowerCase() : file;
  }
}

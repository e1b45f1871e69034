import type { ApprovalContent, ApprovalRequest, ApprovalResponse } from './approval.js';
import {
  contentNeedsPathsReason,
  contentTypeReason,
  HUNKS_AND_CONTENT_REASON,
  HUNKS_NOT_A_LIST_REASON,
  notEditableReason,
  repeatedHunkReason,
  unknownHunkReason,
} from './answer-messages.js';

/** Whether `value` is text or bytes, the two forms new content may take. */
export function isApprovalContent(value: unknown): value is ApprovalContent {
  return typeof value === 'string' || value instanceof Uint8Array;
}

/**
 * The user's content of each file by real path: one text or byte array stands for the change's one editable file,
 * an object names its files. Why not, when the answer's `content` cannot be read so.
 */
export function contentByPath(
  request: Pick<ApprovalRequest, 'editable'>,
  content: NonNullable<Extract<ApprovalResponse, { kind: 'approve' }>['content']>,
): Map<string, ApprovalContent> | { refused: string } {
  const editable = request.editable ?? [];
  if (isApprovalContent(content)) {
    if (editable.length !== 1) return { refused: contentNeedsPathsReason(editable.length) };
    return new Map([[editable[0]!.path, content]]);
  }
  if (typeof content !== 'object' || content === null) return { refused: contentNeedsPathsReason(0) };
  const paths = new Set(editable.map((file) => file.path));
  const byPath = new Map<string, ApprovalContent>();
  for (const [path, value] of Object.entries(content)) {
    if (!paths.has(path)) return { refused: notEditableReason(path) };
    if (!isApprovalContent(value)) return { refused: contentTypeReason(path) };
    byPath.set(path, value);
  }
  return byPath;
}

/**
 * Why `response` cannot be applied to `request`, or `undefined` when it can (docs/approval.md#answers-refused): a
 * hunk id the request lacks or named twice, `hunks` and `content` together, content for a file that cannot be edited
 * or neither text nor bytes. The write path asks this of every answer; a host may ask it before answering. (Text the
 * file's encoding cannot store is found only when it is encoded, by the write.)
 */
export function checkApprovalResponse(
  request: Pick<ApprovalRequest, 'hunks' | 'editable'>,
  response: ApprovalResponse,
): string | undefined {
  if (response.kind !== 'approve') return undefined;
  const { hunks, content } = response;
  if (hunks !== undefined && content !== undefined) return HUNKS_AND_CONTENT_REASON;
  if (hunks !== undefined) {
    if (!Array.isArray(hunks) || hunks.some((id) => typeof id !== 'string')) return HUNKS_NOT_A_LIST_REASON;
    const ids = (request.hunks ?? []).map((hunk) => hunk.id);
    const known = new Set(ids);
    const seen = new Set<string>();
    for (const id of hunks) {
      if (!known.has(id)) return unknownHunkReason(id, ids);
      if (seen.has(id)) return repeatedHunkReason(id);
      seen.add(id);
    }
  }
  if (content !== undefined) {
    const byPath = contentByPath(request, content);
    if ('refused' in byPath) return byPath.refused;
  }
  return undefined;
}

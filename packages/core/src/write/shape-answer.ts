import type { ApprovalContent, ApprovalRequest, ApproveResponse } from '../approval/approval.js';
import {
  approvalFeedbackNote,
  editedContentNote,
  partialApprovalNote,
  unencodableContentReason,
  type EditedFileNote,
} from '../approval/answer-messages.js';
import { checkApprovalResponse, contentByPath } from '../approval/check-answer.js';
import { buildDiffBlocks, type DiffHunk } from '../diff/build-diff-blocks.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import { decodeText, encodeNewFile, UnencodableTextError } from '../text/codec.js';
import { bytesEqual } from '../text/encoding-bytes.js';
import { encodeChange } from '../text/encode-change.js';
import { normalizeLineEndings } from '../text/line-endings.js';
import type { TextReplacement } from '../text/text-replacement.js';
import { fileHunks, hunkId, type ReviewedFile } from './reviewed-file.js';

/** What an approving answer makes of one file. */
export type ShapedFile =
  /** Written as proposed. */
  | { how: 'proposed' }
  /** Left as it is: every hunk of it was rejected. */
  | { how: 'left' }
  /**
   * Written otherwise than proposed: only some of its hunks, or the user's content. `text` is the written file's
   * `\n`-normalised text (`undefined` for bytes that are not text), `display` the diff of what is written.
   */
  | {
      how: 'hunks' | 'content';
      newBytes: Uint8Array | null;
      text: string | undefined;
      display: DiffDisplayBlock[];
    };

/** What an approving answer means for the change. */
export type ShapedAnswer =
  /** `hunks: []`: nothing approved. */
  | { kind: 'rejected'; feedback?: string }
  /** Files to write, one per reviewed file; `note` is what the model is told of the answer (`''`: nothing). */
  | { kind: 'approved'; files: ShapedFile[]; note: string }
  /** The answer cannot be applied: why (docs/approval.md#answers-refused). */
  | { kind: 'refused'; reason: string };

/**
 * What an approving answer makes of a change to `files` (docs/approval.md#answers): the hunks it names applied to
 * the old texts (the others left as the files have them), or the user's own content, or the proposal as it is; or
 * why it cannot be applied. `request` is what was asked (its hunks and editable files).
 */
export function shapeAnswer(
  request: Pick<ApprovalRequest, 'hunks' | 'editable'>,
  files: readonly ReviewedFile[],
  response: ApproveResponse,
  budgetMs: number,
): ShapedAnswer {
  const refused = checkApprovalResponse(request, response);
  if (refused !== undefined) return { kind: 'refused', reason: refused };
  const asProposed = (): ShapedAnswer => ({
    kind: 'approved',
    files: files.map(() => ({ how: 'proposed' })),
    note: approvalFeedbackNote(response.feedback),
  });
  if (response.hunks !== undefined) {
    const approved = new Set(response.hunks);
    if (approved.size === 0) {
      return response.feedback === undefined
        ? { kind: 'rejected' }
        : { kind: 'rejected', feedback: response.feedback };
    }
    if (approved.size === (request.hunks ?? []).length) return asProposed();
    return shapeByHunks(files, approved, response.feedback, budgetMs);
  }
  if (response.content !== undefined) {
    const byPath = contentByPath(request, response.content);
    if ('refused' in byPath) return { kind: 'refused', reason: byPath.refused };
    return shapeByContent(files, byPath, response.feedback, budgetMs) ?? asProposed();
  }
  return asProposed();
}

function shapeByHunks(
  files: readonly ReviewedFile[],
  approved: ReadonlySet<string>,
  feedback: string | undefined,
  budgetMs: number,
): ShapedAnswer {
  const shaped: ShapedFile[] = [];
  const rejectedBlocks: DiffDisplayBlock[] = [];
  let total = 0;
  let written = 0;
  for (const file of files) {
    const hunks = fileHunks(file);
    const taken: DiffHunk[] = [];
    for (const { hunk, blocks } of hunks) {
      total++;
      if (approved.has(hunkId(total))) taken.push(hunk);
      else rejectedBlocks.push(...blocks);
    }
    written += taken.length;
    if (taken.length === hunks.length) shaped.push({ how: 'proposed' });
    else if (taken.length === 0) shaped.push({ how: 'left' });
    else shaped.push(partOfFile(file, taken, budgetMs));
  }
  return {
    kind: 'approved',
    files: shaped,
    note: partialApprovalNote(written, total, rejectedBlocks, feedback),
  };
}

/** A file with only the `taken` hunks of its diff applied (an edited file: the others are whole). */
function partOfFile(file: ReviewedFile, taken: readonly DiffHunk[], budgetMs: number): ShapedFile {
  const { oldText, newText, oldLines, newLines } = file.view.lines;
  const replacements: TextReplacement[] = taken.map((hunk) => ({
    start: oldLines.offset(hunk.oldStart - 1),
    end: oldLines.offset(hunk.oldStart - 1 + hunk.oldLines),
    text: newText.slice(
      newLines.offset(hunk.newStart - 1),
      newLines.offset(hunk.newStart - 1 + hunk.newLines),
    ),
  }));
  let text = '';
  let cut = 0;
  for (const replacement of replacements) {
    text += oldText.slice(cut, replacement.start) + replacement.text;
    cut = replacement.end;
  }
  text += oldText.slice(cut);
  const display = buildDiffBlocks(file.path, oldText, text, { budgetMs });
  if (file.bytesForText) {
    const newBytes = file.bytesForText(text);
    return { how: 'hunks', newBytes, text: decodedText(newBytes), display };
  }
  // Only an edited file is cut into hunks, so there are old bytes, and they decoded (the change was computed).
  const oldBytes = file.oldBytes!;
  const newBytes = encodeChange(decodeOrThrow(oldBytes), oldBytes, replacements);
  return { how: 'hunks', newBytes, text, display };
}

function shapeByContent(
  files: readonly ReviewedFile[],
  byPath: ReadonlyMap<string, ApprovalContent>,
  feedback: string | undefined,
  budgetMs: number,
): ShapedAnswer | undefined {
  const shaped: ShapedFile[] = [];
  const notes: EditedFileNote[] = [];
  for (const file of files) {
    const content = byPath.get(file.path);
    if (content === undefined || file.newBytes === null) {
      shaped.push({ how: 'proposed' });
      continue;
    }
    let newBytes: Uint8Array;
    try {
      newBytes = contentBytes(file.oldBytes, content);
    } catch (error) {
      if (error instanceof UnencodableTextError) {
        return { kind: 'refused', reason: unencodableContentReason(file.path, error.message) };
      }
      throw error;
    }
    if (bytesEqual(newBytes, file.newBytes)) {
      shaped.push({ how: 'proposed' });
      continue;
    }
    const text = decodedText(newBytes);
    const oldText = file.oldBytes === null ? '' : (decodedText(file.oldBytes) ?? '');
    const display = text === undefined ? [] : buildDiffBlocks(file.path, oldText, text, { budgetMs });
    shaped.push({ how: 'content', newBytes, text, display });
    const proposed = decodedText(file.newBytes) ?? '';
    notes.push(
      text === undefined
        ? { kind: 'not-text', path: file.path, bytes: newBytes.length }
        : { kind: 'diff', blocks: buildDiffBlocks(file.path, proposed, text, { budgetMs }) },
    );
  }
  if (notes.length === 0) return undefined;
  return { kind: 'approved', files: shaped, note: editedContentNote(notes, feedback) };
}

/**
 * The bytes of the user's content: bytes as they are; text in the file's encoding, BOM and line endings (lines that
 * keep their text keep their exact breaks), or for a new file as UTF-8 with the breaks as given (as WriteFile writes
 * a new file). Throws `UnencodableTextError` for text the file's encoding cannot store.
 */
function contentBytes(oldBytes: Uint8Array | null, content: ApprovalContent): Uint8Array {
  // A copy: the host's array may change while the write waits for its locks.
  if (typeof content !== 'string') return new Uint8Array(content);
  if (oldBytes === null) return encodeNewFile(content);
  return encodeChange(decodeOrThrow(oldBytes), oldBytes, normalizeLineEndings(content));
}

function decodeOrThrow(bytes: Uint8Array) {
  const decoded = decodeText(bytes);
  if (!decoded.ok) throw new Error('the file the change was computed from is no longer text');
  return decoded.decoded;
}

/** The `\n`-normalised text of `bytes`, or `undefined` when they are not text in a supported encoding. */
function decodedText(bytes: Uint8Array): string | undefined {
  const decoded = decodeText(bytes);
  return decoded.ok ? decoded.decoded.text : undefined;
}

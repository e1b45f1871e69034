import { unifiedDiffLines } from '../diff/unified-diff.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import { showControlCharacters } from '../text/control-pictures.js';
import { counted } from '../text/counted.js';
import { quotedPath, shownPath } from '../text/escape-for-display.js';

// The words of shaped answers (docs/approval.md): why an answer is refused to the host, and what the model is told
// of an answer that approved part of a change or the user's own version of it.

/** How many times one change is asked before an answer that cannot be applied fails the call. */
export const APPROVAL_ASKS = 3;

/** The most diff lines a shaped answer's note shows the model; the rest are counted. */
export const ANSWER_DIFF_MAX_LINES = 200;

/** An answer that names a hunk the request does not have. */
export function unknownHunkReason(id: string, ids: readonly string[]): string {
  const known = ids.length === 0 ? 'it has none' : `its hunks are ${ids.join(', ')}`;
  return `"${id}" is not a hunk of this change (${known})`;
}

/** An answer that names a hunk twice. */
export function repeatedHunkReason(id: string): string {
  return `hunk "${id}" is named twice`;
}

/** `hunks` that is not a list of strings. */
export const HUNKS_NOT_A_LIST_REASON = '"hunks" must be a list of hunk ids';

/** An answer with both `hunks` and `content`. */
export const HUNKS_AND_CONTENT_REASON = 'an answer gives "hunks" or "content", not both';

/** One text or byte array as `content` for a change whose editable files are not exactly one. */
export function contentNeedsPathsReason(editable: number): string {
  return editable === 0
    ? 'no file of this change can be edited'
    : `this change has ${editable} files that can be edited: give "content" as an object keyed by their paths`;
}

/** `content` for a path that is not an editable file of the change. */
export function notEditableReason(path: string): string {
  return `${quotedPath(path)} is not a file of this change that can be edited`;
}

/** `content` whose value is neither text nor bytes. */
export function contentTypeReason(path: string): string {
  return `the content of ${quotedPath(path)} must be a string or a Uint8Array`;
}

/** Text `content` the file's encoding cannot store (`error`: the encoder's sentence). */
export function unencodableContentReason(path: string, error: string): string {
  return `the content of ${quotedPath(path)} cannot be written in the file's encoding: ${error}`;
}

/** The message of a call whose approval answers could not be applied, after {@link APPROVAL_ASKS} asks. */
export function invalidAnswerMessage(reason: string): string {
  return (
    `The approval answer could not be applied: ${reason}. Nothing was written. ` +
    'This is a fault of the application that asked the user, not of your change: tell the user.'
  );
}

/** A tool's success message with the note of the user's answer on the lines after it (none: the message as is). */
export function withAnswerNote(message: string, note: string): string {
  return note === '' ? message : `${message}\n${note}`;
}

/** ` User feedback: {feedback}` when there is feedback (trimmed), else `''`. */
function feedbackSentence(feedback: string | undefined): string {
  const text = feedback?.trim();
  return text ? ` User feedback: ${text}` : '';
}

/** The note of a plain approval that carries feedback. */
export function approvalFeedbackNote(feedback: string | undefined): string {
  return feedbackSentence(feedback).trimStart();
}

/** The blocks as a unified diff for the model, each line's control characters as ReadFile shows them (pictures). */
function diffText(blocks: readonly DiffDisplayBlock[]): string {
  return unifiedDiffLines(blocks, { maxLines: ANSWER_DIFF_MAX_LINES, showPath: shownPath })
    .map((line) => showControlCharacters(line.text))
    .join('\n');
}

/** The note of an answer that approved `written` of `total` hunks; `rejected` are the blocks of the others. */
export function partialApprovalNote(
  written: number,
  total: number,
  rejected: readonly DiffDisplayBlock[],
  feedback: string | undefined,
): string {
  const files = new Set(rejected.map((block) => block.path)).size;
  const keeps = files === 1 ? 'the file keeps' : 'the files keep';
  return (
    `The user approved only part of this change: ${written} of ${counted(total, 'hunk')} ${written === 1 ? 'was' : 'were'} written. ` +
    `The rejected hunks below were not written; ${keeps} those lines as they were.${feedbackSentence(feedback)}\n` +
    diffText(rejected)
  );
}

/** What one edited file became, for the model: the diff from the proposal, or the size of bytes that are not text. */
export type EditedFileNote =
  { kind: 'diff'; blocks: readonly DiffDisplayBlock[] } | { kind: 'not-text'; path: string; bytes: number };

/** The note of an answer that wrote the user's own version of files instead of the proposal. */
export function editedContentNote(files: readonly EditedFileNote[], feedback: string | undefined): string {
  const blocks = files.flatMap((file) => (file.kind === 'diff' ? file.blocks : []));
  const opaque = files.flatMap((file) =>
    file.kind === 'not-text'
      ? [
          `${quotedPath(file.path)}: the user's version is not text in a supported encoding (${counted(file.bytes, 'byte')}), so no difference can be shown.`,
        ]
      : [],
  );
  const parts = [
    'The user edited your proposal before accepting it, so what was written differs from what you sent. ' +
      `Build on the user's version and do not undo the user's edits.${feedbackSentence(feedback)}`,
  ];
  if (blocks.length > 0) parts.push(`From your proposal to what was written:\n${diffText(blocks)}`);
  parts.push(...opaque);
  return parts.join('\n');
}

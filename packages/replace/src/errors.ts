import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import {
  Briefs,
  quotedPath,
  readStateError,
  shownArgumentLine,
  unsupportedEncodingError,
  withFinalLineBreak,
  type CoreBrief,
} from '@kimi-tools/core/toolkit';
import type { EditCall } from './edit/edit-call.js';
import { MAX_EDIT_FILE_BYTES } from './limits.js';
import { MAX_LISTED_MATCHES } from './match/find-edit.js';
import type { AlreadyApplied, EditFailure } from './match/types.js';
import type { EditTextRefusal } from './window/window-text.js';

// StrReplaceFile's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** StrReplaceFile's own briefs. */
export const StrReplaceFileBriefs = {
  invalidEdit: 'Invalid edit',
  noMatch: 'No match',
  ambiguousMatch: 'Ambiguous match',
  elided: 'Elided content',
  alreadyApplied: 'Already applied',
  failed: 'Failed to edit file',
} as const;

/** Every brief a StrReplaceFile result can carry (`''` on success). */
export type StrReplaceFileBrief =
  '' | CoreBrief | (typeof StrReplaceFileBriefs)[keyof typeof StrReplaceFileBriefs];

/** The briefs of a failed edit. */
type EditFailureBrief = Exclude<
  (typeof StrReplaceFileBriefs)[keyof typeof StrReplaceFileBriefs],
  'Failed to edit file' | 'Elided content'
>;

/** Refused: a Jupyter notebook, edited cell by cell elsewhere. */
export function notebookError(input: string): ToolReturnValue<typeof Briefs.unsupportedFileType> {
  return toolError({
    message: `${quotedPath(input)} is a Jupyter notebook. Edit its cells with the NotebookEdit tool.`,
    brief: Briefs.unsupportedFileType,
  });
}

/** The listed line numbers, followed by `...` when there were more matches than the error lists. */
function listedLines(lines: readonly number[], count: number): string {
  return count > MAX_LISTED_MATCHES ? `${lines.join(', ')}, ...` : lines.join(', ');
}

/** The message and brief of a failed edit, worded as docs/str-replace-file.md says (`index` is 1-based). */
export function editFailureText(
  index: number,
  failure: EditFailure,
): { message: string; brief: EditFailureBrief } {
  switch (failure.kind) {
    case 'empty-old':
      return {
        message: `Edit ${index}: the old string is empty. Provide the exact text to replace.`,
        brief: StrReplaceFileBriefs.invalidEdit,
      };
    case 'identical':
      return {
        message: `Edit ${index}: the old and new strings are identical; nothing to change.`,
        brief: StrReplaceFileBriefs.invalidEdit,
      };
    case 'not-found': {
      const closest =
        failure.closest === undefined
          ? ''
          : ` The closest text is at line ${failure.closest.line}:\n\`\`\`\n${failure.closest.excerpt}\n\`\`\``;
      return {
        message: `Edit ${index}: the old string was not found in the file. No changes were made.${closest}`,
        brief: StrReplaceFileBriefs.noMatch,
      };
    }
    case 'line-breaks-differ': {
      const at =
        failure.count === 1
          ? `line ${failure.lines[0]}`
          : `lines ${listedLines(failure.lines, failure.count)}`;
      const lineBreak = JSON.stringify(failure.lineBreak).slice(1, -1);
      return {
        message: `Edit ${index}: the old string was not found in the file. No changes were made. With line breaks read as \\n, it is at ${at}: replace_all replaces exact text only, and this file's line breaks are ${lineBreak}. Write the line breaks of old and new as ${lineBreak}, or replace each place with an edit of its own.`,
        brief: StrReplaceFileBriefs.noMatch,
      };
    }
    case 'too-many':
      return {
        message: `Edit ${index}: the edits would make more than ${failure.limit} replacements; at most ${failure.limit} are made in one call. No changes were made. Use a more specific old string, or a script for a change this large.`,
        brief: StrReplaceFileBriefs.invalidEdit,
      };
    case 'too-large':
      return {
        message: `Edit ${index}: the edits would add more than ${failure.limit} characters to the file; at most ${failure.limit} are added in one call. No changes were made.`,
        brief: StrReplaceFileBriefs.invalidEdit,
      };
    case 'replaced':
      return {
        message: `Edit ${index}: the old string was not found in the file. No changes were made. An earlier edit in this session replaced that text; ${failure.from === failure.to ? `line ${failure.from} now reads` : `lines ${failure.from}-${failure.to} now read`} (with a line around):\n\`\`\`\n${withFinalLineBreak(failure.excerpt)}\`\`\``,
        brief: StrReplaceFileBriefs.noMatch,
      };
    case 'partly-applied':
      return {
        message: `${appliedList(failure.applied)} already applied by an earlier call in this session (${appliedPlaces(failure.applied)}); the other edits were not. No changes were made. Send only the edits not applied yet.`,
        brief: StrReplaceFileBriefs.alreadyApplied,
      };
    case 'ambiguous':
      return {
        message: `Edit ${index}: found ${failure.count} matches of the old string (at lines ${listedLines(failure.lines, failure.count)}). Provide more surrounding context to make it unique, or set replace_all to true.`,
        brief: StrReplaceFileBriefs.ambiguousMatch,
      };
  }
}

/** `Edit 2 was` / `Edits 1, 3 were`. */
function appliedList(applied: readonly AlreadyApplied[]): string {
  const indexes = applied.map((edit) => edit.index);
  return indexes.length === 1 ? `Edit ${indexes[0]} was` : `Edits ${indexes.join(', ')} were`;
}

/** `edit 1 at line 12, edit 3 at line 40`. */
export function appliedPlaces(applied: readonly AlreadyApplied[]): string {
  return applied.map((edit) => `edit ${edit.index} at line ${edit.line}`).join(', ');
}

/** The message of an edit that failed unexpectedly. */
export function editFailedMessage(error: string): string {
  return `Failed to edit. Error: ${error}`;
}

/** Refused: the edits put an elision comment where lines of the file were (docs/str-replace-file.md). */
export function elidedContentError(comment: string): ToolReturnValue<typeof StrReplaceFileBriefs.elided> {
  return toolError({
    message: `The edits replace existing lines with the comment \`${shownArgumentLine(comment)}\`, which reads as if code was left out; writing it would delete that code. No changes were made. Put the real lines in new, or narrow old to the lines that change.`,
    brief: StrReplaceFileBriefs.elided,
  });
}

/**
 * The answer to a file that cannot be edited as read (docs/str-replace-file.md#files-read-in-windows): not text, a
 * file too large for a string in an encoding windows are not read in, edits that could match at more places than the
 * windows of one call hold, or a file that is not what was stamped or checked any more (it is being rewritten under the
 * edit).
 */
export function editTextRefusal(
  call: Pick<EditCall, 'input' | 'streamAboveBytes' | 'file'>,
  refusal: EditTextRefusal,
): ToolReturnValue<StrReplaceFileBrief> {
  const path = quotedPath(call.input);
  switch (refusal.refused) {
    case 'not-text':
      return unsupportedEncodingError(call.input);
    case 'changing':
      return readStateError(call.input, 'modified');
    case 'encoding':
      return toolError({
        message: `${path} is larger than ${MAX_EDIT_FILE_BYTES} bytes and is encoded in ${refusal.encoding}; a file this large is edited only in UTF-8, UTF-16 or a single-byte encoding. No changes were made.`,
        brief: Briefs.unsupportedEncoding,
      });
    case 'too-many-places':
      return toolError({
        message: `${path} is larger than ${call.streamAboveBytes} bytes, so it is read in windows around the places the edits could match, and they could match at more places than ${call.file.tuning.maxWindowBytes} bytes of windows hold. No changes were made. Make old more specific: include a line that occurs rarely in the file.`,
        brief: StrReplaceFileBriefs.invalidEdit,
      });
  }
}

import type { ApprovalRequest, EditableFile } from '@kimi-tools/core';
import { shownPath } from '@kimi-tools/core/toolkit';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** One field of an elicitation form. */
type FormField = ElicitRequestFormParams['requestedSchema']['properties'][string];

/**
 * The first protocol version whose forms take multi-select enums (SEP-1330: an `array` of `anyOf` `const`s) and
 * default values (SEP-1034). Before it a form has no field for hunks, and a text field starts empty.
 */
export const MULTI_SELECT_SINCE = '2025-11-25';

/** The largest proposal, in bytes as the file would hold them, a form offers to replace in a text field. */
export const FORM_CONTENT_MAX_BYTES = 32 * 1024;

/** Whether forms of `protocolVersion` (`undefined`: the latest) take multi-selects and defaults. */
function takesMultiSelect(protocolVersion: string | undefined): boolean {
  // Protocol versions are dates, so they compare as strings.
  return protocolVersion === undefined || protocolVersion >= MULTI_SELECT_SINCE;
}

/** The request's one file, when it changes one file whose proposal is small enough to edit in a text field. */
function replaceableFile(request: ApprovalRequest): { file: EditableFile; proposal: string } | undefined {
  const editable = request.editable ?? [];
  const file = editable[0];
  if (editable.length !== 1 || file === undefined) return undefined;
  if ((request.hunks ?? []).some((hunk) => hunk.path !== file.path)) return undefined;
  // Judged on the size, so a big file is never decoded for a form that will not offer it.
  if (file.size > FORM_CONTENT_MAX_BYTES) return undefined;
  return { file, proposal: file.proposedText() };
}

/**
 * The form fields that shape an approval (docs/approval.md#per-hunk-answers): `hunks`, a multi-select of the change's
 * hunks, all selected, when it has more than one and the protocol version takes multi-selects; `content`, a text
 * field for the user's own version of a one-file change of at most {@link FORM_CONTENT_MAX_BYTES} bytes (holding the
 * proposal where defaults exist). Neither otherwise: the plain form.
 */
export function shapedFields(request: ApprovalRequest, protocolVersion?: string): Record<string, FormField> {
  const fields: Record<string, FormField> = {};
  const hunks = request.hunks ?? [];
  const latest = takesMultiSelect(protocolVersion);
  if (hunks.length > 1 && latest) {
    fields.hunks = {
      type: 'array',
      title: 'Hunks to write',
      description:
        'With "Approve once": the hunks of the change to write; those left out are not written. All are selected.',
      items: {
        anyOf: hunks.map((hunk) => ({
          const: hunk.id,
          title: `${hunk.id}: ${shownPath(hunk.path)}, line ${hunk.oldStart}`,
        })),
      },
      default: hunks.map((hunk) => hunk.id),
    };
  }
  const replaceable = replaceableFile(request);
  if (replaceable !== undefined) {
    fields.content = {
      type: 'string',
      title: 'Your version',
      description: latest
        ? 'With "Approve once": the whole new content of the file. Change it to write your version instead of the proposal.'
        : 'With "Approve once": the whole new content of the file, written instead of the proposal. Leave it empty to write the proposal.',
      ...(latest ? { default: replaceable.proposal } : {}),
    };
  }
  return fields;
}

/**
 * What the shaping fields of an accepted form ask for: only some hunks, or the user's content (which then wins: it is
 * written whole); nothing when they keep the proposal; `undefined` when they hold what the form does not offer.
 */
export function shapedChoice(
  request: ApprovalRequest,
  content: NonNullable<ElicitResult['content']>,
): { hunks?: string[]; content?: string } | undefined {
  const choice: { hunks?: string[]; content?: string } = {};
  const text = content.content;
  if (text !== undefined) {
    const replaceable = replaceableFile(request);
    if (typeof text !== 'string' || replaceable === undefined) return undefined;
    // Empty, or the proposal itself (a client may have turned its line breaks into `\n`), writes the proposal.
    const proposal = replaceable.proposal;
    if (text !== '' && text !== proposal && text !== proposal.replace(/\r\n?/g, '\n')) {
      return { content: text };
    }
  }
  const chosen = content.hunks;
  if (chosen !== undefined) {
    const ids = (request.hunks ?? []).map((hunk) => hunk.id);
    if (!Array.isArray(chosen) || chosen.some((id) => typeof id !== 'string' || !ids.includes(id)))
      return undefined;
    const unique = [...new Set(chosen)];
    if (unique.length < ids.length) choice.hunks = unique;
  }
  return choice;
}

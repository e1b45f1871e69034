import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import type { CoreBrief } from '@kimi-tools/core/toolkit';

// NotebookEdit's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** NotebookEdit's own briefs. */
export const NotebookEditBriefs = {
  textTooLarge: 'Text too large',
} as const;

/** Every brief a NotebookEdit result can carry (`''` on success). */
export type NotebookEditBrief = '' | CoreBrief | (typeof NotebookEditBriefs)[keyof typeof NotebookEditBriefs];

/** Refused: a text file too large to decode for its text details. */
export function textTooLargeError(
  shown: string,
  size: number,
  maxBytes: number,
): ToolReturnValue<typeof NotebookEditBriefs.textTooLarge> {
  return toolError({
    message:
      `\`${shown}\` is ${size} bytes; text details are given for files up to ${maxBytes} bytes. ` +
      'Call NotebookEdit again with text_details set to false to get its kind and size.',
    brief: NotebookEditBriefs.textTooLarge,
  });
}

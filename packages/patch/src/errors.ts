import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import type { CoreBrief } from '@kimi-tools/core/toolkit';

// ApplyPatch's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** ApplyPatch's own briefs. */
export const ApplyPatchBriefs = {
  invalidPatch: 'Invalid patch',
  patchFailed: 'Patch failed',
  patchTooLarge: 'Patch too large',
} as const;

/** Every brief an ApplyPatch result can carry (`''` on success). */
export type ApplyPatchBrief = '' | CoreBrief | (typeof ApplyPatchBriefs)[keyof typeof ApplyPatchBriefs];

/** A patch that cannot be read: `Invalid patch: {reason}`. */
export function invalidPatchError(reason: string): ToolReturnValue<typeof ApplyPatchBriefs.invalidPatch> {
  return toolError({ message: `Invalid patch: ${reason}`, brief: ApplyPatchBriefs.invalidPatch });
}

/** A patch that cannot be applied: its message lists every failure and ends with `No file was changed.` */
export function patchFailedError(message: string): ToolReturnValue<typeof ApplyPatchBriefs.patchFailed> {
  return toolError({ message, brief: ApplyPatchBriefs.patchFailed });
}

/** A patch over one of the limits, refused before it is read. */
export function patchTooLargeError(
  what: 'bytes' | 'files' | 'chunks',
  count: number,
  limit: number,
): ToolReturnValue<typeof ApplyPatchBriefs.patchTooLarge> {
  return toolError({
    message: `The patch has ${count} ${what}; ApplyPatch takes at most ${limit} ${what} in one patch. Split the change into several patches. No file was changed.`,
    brief: ApplyPatchBriefs.patchTooLarge,
  });
}

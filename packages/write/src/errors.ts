import { shownPath, type CoreBrief } from '@kimi-tools/core/toolkit';

// WriteFile's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** WriteFile's own briefs. */
export const WriteFileBriefs = {
  failed: 'Failed to write file',
} as const;

/** Every brief a WriteFile result can carry (`''` on success). */
export type WriteFileBrief = '' | CoreBrief | (typeof WriteFileBriefs)[keyof typeof WriteFileBriefs];

/** The message of a write that failed unexpectedly. */
export function writeFailedMessage(path: string, error: string): string {
  return `Failed to write to ${shownPath(path)}. Error: ${error}`;
}

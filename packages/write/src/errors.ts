import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import { failedOnPathMessage, quotedPath, shownArgumentLine, type CoreBrief } from '@kimi-tools/core/toolkit';

// WriteFile's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** WriteFile's own briefs. */
export const WriteFileBriefs = {
  failed: 'Failed to write file',
  elided: 'Elided content',
} as const;

/** Every brief a WriteFile result can carry (`''` on success). */
export type WriteFileBrief = '' | CoreBrief | (typeof WriteFileBriefs)[keyof typeof WriteFileBriefs];

/** The message of a write that failed unexpectedly. */
export function writeFailedMessage(path: string, error: string): string {
  return failedOnPathMessage('write to', path, error);
}

/** Refused: an overwrite that puts an elision comment where the file's lines were (docs/write-file.md). */
export function elidedContentError(
  path: string,
  comment: string,
): ToolReturnValue<typeof WriteFileBriefs.elided> {
  return toolError({
    message: `The new content of ${quotedPath(path)} replaces existing lines with the comment \`${shownArgumentLine(comment)}\`, which reads as if code was left out; writing it would delete that code. Nothing was written. Write the complete content, or change only the lines that change with StrReplaceFile.`,
    brief: WriteFileBriefs.elided,
  });
}

import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import { Briefs, notReadableMessage, quotedPath, type CoreBrief } from '@kimi-tools/core/toolkit';
import { MAX_TAIL_LINES, MAX_UNSIZED_BYTES } from './limits.js';

// ReadFile's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** Every brief a ReadFile result can carry (`''` on success; `Sensitive file` is core's, shared with ReadMediaFile). */
export type ReadFileBrief = '' | CoreBrief;

/** Refused: an image or a video, which ReadMediaFile reads. */
export function mediaFileError(
  shown: string,
  kind: 'image' | 'video',
): ToolReturnValue<typeof Briefs.unsupportedFileType> {
  return toolError({
    message: `${quotedPath(shown)} is a ${kind} file. Use other appropriate tools to read image or video files.`,
    brief: Briefs.unsupportedFileType,
  });
}

/** Refused: a PDF, which ReadMediaFile reads page by page. */
export function pdfFileError(shown: string): ToolReturnValue<typeof Briefs.unsupportedFileType> {
  return toolError({
    message: `${quotedPath(shown)} is a PDF file. Use ReadMediaFile to read PDF files page by page.`,
    brief: Briefs.unsupportedFileType,
  });
}

/** Refused: not text in any supported encoding. */
export function notReadableError(shown: string): ToolReturnValue<typeof Briefs.fileNotReadable> {
  return toolError({ message: notReadableMessage(shown), brief: Briefs.fileNotReadable });
}

/** Refused: a file that reports no size (`/proc`, some FUSE file systems) and turns out larger than a snapshot holds. */
export function unsizedTooLargeError(shown: string): ToolReturnValue<typeof Briefs.fileNotReadable> {
  return toolError({
    message: `${quotedPath(shown)} reports no size and holds more than ${MAX_UNSIZED_BYTES / (1024 * 1024)} MiB; ReadFile reads such a file only up to that size.`,
    brief: Briefs.fileNotReadable,
  });
}

/** Schema message: `line_offset` 0 means nothing. */
export const LINE_OFFSET_ZERO_MESSAGE =
  'line_offset cannot be 0; use 1 for the first line or -1 for the last line';

/** Schema message: a tail read reaches back at most `MAX_TAIL_LINES` lines. */
export const LINE_OFFSET_TOO_LOW_MESSAGE = `line_offset cannot be less than -${MAX_TAIL_LINES}. Use a positive line_offset with the total line count to read from a specific position.`;

import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import { Briefs, notReadableMessage, quotedPath, type CoreBrief } from '@kimi-tools/core/toolkit';
import type { MediaKind } from './availability.js';

// ReadMediaFile's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** ReadMediaFile's own briefs. */
export const ReadMediaFileBriefs = {
  unsupportedMediaType: 'Unsupported media type',
  emptyFile: 'Empty file',
} as const;

/** Every brief a ReadMediaFile result can carry (`''` on success). */
export type ReadMediaFileBrief =
  '' | CoreBrief | (typeof ReadMediaFileBriefs)[keyof typeof ReadMediaFileBriefs];

/** Refused: a text file, which ReadFile reads. */
export function textFileError(shown: string): ToolReturnValue<typeof Briefs.unsupportedFileType> {
  return toolError({
    message: `${quotedPath(shown)} is a text file. Use ReadFile to read text files.`,
    brief: Briefs.unsupportedFileType,
  });
}

/** Refused: neither an image nor a video. */
export function notMediaError(shown: string): ToolReturnValue<typeof Briefs.fileNotReadable> {
  return toolError({
    message: notReadableMessage(shown, 'as an image or video file'),
    brief: Briefs.fileNotReadable,
  });
}

/** Refused: the model cannot take this kind of media. */
export function unsupportedMediaError(
  kind: MediaKind,
): ToolReturnValue<typeof ReadMediaFileBriefs.unsupportedMediaType> {
  return toolError({
    message: `The current model does not support ${kind} input. Tell the user to use a model with ${kind} input capability.`,
    brief: ReadMediaFileBriefs.unsupportedMediaType,
  });
}

/** Refused: an empty media file. */
export function emptyFileError(realPath: string): ToolReturnValue<typeof ReadMediaFileBriefs.emptyFile> {
  return toolError({ message: `${quotedPath(realPath)} is empty.`, brief: ReadMediaFileBriefs.emptyFile });
}

/** Refused: larger than the media limit. */
export function tooLargeError(realPath: string, size: number): ToolReturnValue<typeof Briefs.fileTooLarge> {
  return toolError({
    message: `${quotedPath(realPath)} is ${size} bytes, which exceeds the max 100MB bytes for media files.`,
    brief: Briefs.fileTooLarge,
  });
}

/** Thrown (and turned into the failure message) when the upload hook gives no URL. */
export const NO_UPLOAD_URL_MESSAGE = 'the uploadVideo hook returned no URL';

/** Thrown by the constructor when the model takes neither images nor videos. */
export const NO_MEDIA_CAPABILITY_MESSAGE =
  "ReadMediaFile needs a model with image or video input: pass capabilities ['image_in'] and/or ['video_in'] " +
  '(new ReadMediaFile(runtime, { capabilities })), and offer the tool only when ' +
  'isReadMediaFileAvailable({ capabilities }) is true.';

import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import {
  Briefs,
  notReadableMessage,
  quotedPath,
  shownArgumentLine,
  type CoreBrief,
} from '@kimi-tools/core/toolkit';
import type { MediaKind } from './availability.js';
import type { Region } from './image-fit.js';

// ReadMediaFile's error vocabulary: its own briefs and messages, worded once; the shared ones come from core.

/** ReadMediaFile's own briefs. */
export const ReadMediaFileBriefs = {
  unsupportedMediaType: 'Unsupported media type',
  emptyFile: 'Empty file',
  imageLibraryMissing: 'Image library missing',
  encryptedPdf: 'Encrypted PDF',
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

/** How a user turns the optional image library on, said the same way in every message that needs it. */
const INSTALL_SHARP =
  'Tell the user to install the optional image library (npm install sharp, next to @kimi-tools/media)';

/** Refused: the image needs the image library (over the budget, or a region asked) and it could not be loaded. */
export function imageLibraryMissingError(
  realPath: string,
  reason: string,
  forRegion: boolean,
  base64Size: number,
  maxBytes: number,
): ToolReturnValue<typeof ReadMediaFileBriefs.imageLibraryMissing> {
  const message = forRegion
    ? `Cannot crop ${quotedPath(realPath)} to a region: the image library sharp could not be loaded (${reason}). ` +
      `${INSTALL_SHARP} to enable cropping and fitting; without region, images within the budget are sent as they are.`
    : `${quotedPath(realPath)} is ${base64Size} bytes of base64, over the ${maxBytes}-byte image budget, and cannot be ` +
      `scaled down: the image library sharp could not be loaded (${reason}). ${INSTALL_SHARP} to enable fitting ` +
      "images to the model's limits.";
  return toolError({ message, brief: ReadMediaFileBriefs.imageLibraryMissing });
}

/** Refused: the image library cannot decode the image (HEIC compressed with HEVC, or a damaged file). */
export function imageDecodeError(
  realPath: string,
  mime: string,
  error: unknown,
): ToolReturnValue<typeof Briefs.fileNotReadable> {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
  const message =
    mime === 'image/heic' || mime === 'image/heif'
      ? `${quotedPath(realPath)} is a HEIC/HEIF image (${mime}) that the image library cannot decode (${reason}): ` +
        'it reads AVIF but not HEVC-compressed HEIC. Ask the user to convert it to JPEG or PNG (for example with ' +
        'heif-convert), then read the result.'
      : `${quotedPath(realPath)} could not be decoded as ${mime} by the image library (${reason}). The file may be ` +
        'damaged or use a variant the library does not support.';
  return toolError({ message, brief: Briefs.fileNotReadable });
}

/** Refused: the region reaches past the image. */
export function regionOutsideError(
  region: Region,
  image: { width: number; height: number },
): ToolReturnValue<typeof Briefs.invalidArguments> {
  return toolError({
    message:
      `region ${describeRegion(region)} is not inside the image, which is ${image.width}x${image.height}px ` +
      `(upright): x + width must be at most ${image.width} and y + height at most ${image.height}.`,
    brief: Briefs.invalidArguments,
  });
}

/** Refused: not even a thumbnail of the image fits the byte budget. */
export function imageTooLargeToFitError(
  realPath: string,
  maxBytes: number,
): ToolReturnValue<typeof Briefs.fileTooLarge> {
  return toolError({
    message:
      `${quotedPath(realPath)} does not fit ${maxBytes} bytes of base64 even scaled down to a thumbnail. ` +
      'Read a smaller part of it with region.',
    brief: Briefs.fileTooLarge,
  });
}

/** Refused: a parameter that does not apply to this kind of file (`pages` for an image, `region` for a PDF...). */
export function parameterNotApplicableError(
  shown: string,
  parameter: 'region' | 'full_resolution' | 'pages',
  kind: MediaKind | 'pdf',
): ToolReturnValue<typeof Briefs.invalidArguments> {
  const appliesTo = parameter === 'pages' ? 'PDF files' : 'images';
  const article = { image: 'an image', video: 'a video', pdf: 'a PDF' }[kind];
  return toolError({
    message: `${parameter} applies only to ${appliesTo}, and ${quotedPath(shown)} is ${article} file.`,
    brief: Briefs.invalidArguments,
  });
}

/** Refused: the PDF needs a password. */
export function encryptedPdfError(
  realPath: string,
): ToolReturnValue<typeof ReadMediaFileBriefs.encryptedPdf> {
  return toolError({
    message:
      `${quotedPath(realPath)} is an encrypted PDF that needs a password to open. Ask the user for a copy without ` +
      'the password (for example made with qpdf --decrypt).',
    brief: ReadMediaFileBriefs.encryptedPdf,
  });
}

/** Refused: the PDF is damaged or not a PDF past its header. */
export function invalidPdfError(
  realPath: string,
  reason: string,
): ToolReturnValue<typeof Briefs.fileNotReadable> {
  return toolError({
    message:
      `${quotedPath(realPath)} is not a readable PDF (${reason}). The file is damaged or incomplete, for example ` +
      'cut short by a download; ask the user for an intact copy.',
    brief: Briefs.fileNotReadable,
  });
}

/** Refused: the first page asked is past the end of the document (`pages` may hold white space and any digits). */
export function pagesOutsideError(
  pages: string,
  total: number,
): ToolReturnValue<typeof Briefs.invalidArguments> {
  return toolError({
    message: `pages "${shownArgumentLine(pages)}" starts after the last page: the document has ${total} page${total === 1 ? '' : 's'}.`,
    brief: Briefs.invalidArguments,
  });
}

/** `x=10, y=20, width=300, height=200`: a region as messages show it. */
export function describeRegion(region: Region): string {
  return `x=${region.x}, y=${region.y}, width=${region.width}, height=${region.height}`;
}

import { CallableTool, toolOk, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import {
  Briefs,
  detectFileKind,
  readFailedMessage,
  FILE_HEAD_BYTES,
  openRegularFile,
  readHandleUpTo,
  fileNotFoundError,
  notAFileError,
  quotedPath,
  sensitiveFileError,
} from '@kimi-tools/core/toolkit';
import { z } from 'zod';
import {
  isReadMediaFileAvailable,
  supportedMediaKinds,
  type Capability,
  type MediaKind,
} from './availability.js';
import { describeReadMediaFile } from './description.js';
import {
  emptyFileError,
  NO_MEDIA_CAPABILITY_MESSAGE,
  NO_UPLOAD_URL_MESSAGE,
  notMediaError,
  textFileError,
  tooLargeError,
  unsupportedMediaError,
  type ReadMediaFileBrief,
} from './errors.js';
import { readImageDimensions, type ImageDimensions } from './image-dimensions.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import { mediaParts, toDataUrl } from './media-parts.js';
import { checkedOptions, type ReadMediaFileOptions, type UploadVideo } from './options.js';

/** Arguments of ReadMediaFile. */
export const ReadMediaFileParams = z.object({
  path: z
    .string()
    .describe(
      'The path of the image or video file to read: absolute, or relative to the working directory. ' +
        'Files outside the working directory need an absolute path.',
    ),
});

/** Validated arguments of ReadMediaFile. */
export type ReadMediaFileParams = z.output<typeof ReadMediaFileParams>;

const CAPABILITY: Record<MediaKind, Capability> = { image: 'image_in', video: 'video_in' };

const AFTER_LOAD_ADVICE =
  'If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the ' +
  'original image size; if you generate or edit images/videos via commands or scripts, read the result back ' +
  'immediately before continuing.';

function loadedMessage(
  kind: MediaKind,
  realPath: string,
  mime: string,
  size: number,
  dims?: ImageDimensions,
) {
  const sizeHint = dims ? `, original size ${dims.width}x${dims.height}px` : '';
  return `Loaded ${kind} file ${quotedPath(realPath)} (${mime}, ${size} bytes${sizeHint}). ${AFTER_LOAD_ADVICE}`;
}

/**
 * ReadMediaFile: hands an image or video file to a multimodal model as an `image_url` / `video_url` part wrapped
 * in `<image path="...">` / `<video path="...">` text parts. Offer it only when {@link isReadMediaFileAvailable}.
 */
export class ReadMediaFile extends CallableTool<typeof ReadMediaFileParams, ReadMediaFileBrief> {
  readonly name = 'ReadMediaFile';
  readonly description: string;
  readonly params = ReadMediaFileParams;
  protected readonly failureBrief = Briefs.readFailed;
  private readonly capabilities: readonly Capability[];
  private readonly uploadVideo: UploadVideo | undefined;

  /** Throws when the model takes neither images nor videos (no `image_in` / `video_in`), or on an invalid option. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: ReadMediaFileOptions = {},
  ) {
    super();
    ({ capabilities: this.capabilities, uploadVideo: this.uploadVideo } = checkedOptions(options));
    if (!isReadMediaFileAvailable({ capabilities: this.capabilities }))
      throw new Error(NO_MEDIA_CAPABILITY_MESSAGE);
    this.description = describeReadMediaFile(supportedMediaKinds({ capabilities: this.capabilities }));
  }

  protected override failureMessage(params: ReadMediaFileParams, error: string): string {
    return readFailedMessage(params.path, error);
  }

  protected async execute(params: ReadMediaFileParams): Promise<ToolReturnValue<ReadMediaFileBrief>> {
    const resolution = await this.runtime.paths.resolveFile(params.path, 'read');
    if (!resolution.ok) return resolution.error;
    // As ReadFile: decided before the file is looked up, so the answer says nothing of what is there.
    if (this.runtime.paths.isSensitive(resolution.path)) return sensitiveFileError(params.path);
    const { absolute, real } = resolution.path;

    // One descriptor for every check and the read: the path may become a FIFO or another file at any moment.
    const file = await openRegularFile(real);
    if (file === 'missing') return fileNotFoundError(params.path, absolute, this.runtime.workDir);
    if (file === 'not-a-file') return notAFileError(params.path);
    let bytes: Uint8Array;
    let kind: MediaKind;
    let mime: string;
    try {
      const { handle, stats } = file;
      const fileKind = await detectFileKind(real, await readHandleUpTo(handle, FILE_HEAD_BYTES));
      if (fileKind.kind === 'text') return textFileError(params.path);
      if (fileKind.kind === 'binary') return notMediaError(params.path);
      ({ kind, mime } = fileKind);
      if (!this.capabilities.includes(CAPABILITY[kind])) return unsupportedMediaError(kind);

      if (stats.size === 0) return emptyFileError(real);
      if (stats.size > MAX_MEDIA_BYTES) return tooLargeError(real, stats.size);
      // The file may grow or shrink after the fstat; judge what was actually read.
      bytes = await readHandleUpTo(handle, MAX_MEDIA_BYTES + 1, stats.size + 1);
      if (bytes.length === 0) return emptyFileError(real);
      if (bytes.length > MAX_MEDIA_BYTES) return tooLargeError(real, (await handle.stat()).size);
    } finally {
      await file.handle.close();
    }

    const dims = kind === 'image' ? readImageDimensions(bytes) : undefined;
    const upload = kind === 'video' ? this.uploadVideo : undefined;
    const url = upload ? await uploadedUrl(upload, bytes, mime) : toDataUrl(bytes, mime);
    return toolOk({
      output: mediaParts(kind, real, url),
      message: loadedMessage(kind, real, mime, bytes.length, dims),
      extras: { kind, mime, size: bytes.length, ...(dims ?? {}) },
    });
  }
}

/** The URL the runtime's upload hook gives for a video; a hook that gives none is an error, not an empty part. */
async function uploadedUrl(upload: UploadVideo, bytes: Uint8Array, mime: string): Promise<string> {
  const url: unknown = await upload(bytes, mime);
  if (typeof url !== 'string' || url === '') throw new Error(NO_UPLOAD_URL_MESSAGE);
  return url;
}

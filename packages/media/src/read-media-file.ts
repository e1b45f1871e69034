import { CallableTool, toolOk, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import {
  Briefs,
  detectFileKind,
  readFailedMessage,
  FILE_HEAD_BYTES,
  openFileToRead,
  readHandleUpTo,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from './tool-zod.js';
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
  parameterNotApplicableError,
  textFileError,
  tooLargeError,
  unsupportedMediaError,
  type ReadMediaFileBrief,
} from './errors.js';
import { readImage } from './image-read.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import { mediaParts, toDataUrl } from './media-parts.js';
import { loadedMessage } from './messages.js';
import {
  checkedOptions,
  type CheckedOptions,
  type ReadMediaFileOptions,
  type UploadVideo,
} from './options.js';
import { ReadMediaFileParams } from './params.js';
import { readPdf } from './pdf-read.js';

const CAPABILITY: Record<MediaKind, Capability> = { image: 'image_in', video: 'video_in' };

/**
 * ReadMediaFile: hands an image or video file to a multimodal model as an `image_url` / `video_url` part wrapped
 * in `<image path="...">` / `<video path="...">` text parts. Offer it only when {@link isReadMediaFileAvailable}.
 */
export class ReadMediaFile extends CallableTool<typeof ReadMediaFileParams, ReadMediaFileBrief> {
  readonly name = 'ReadMediaFile';
  readonly description: string;
  readonly params = ReadMediaFileParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = Briefs.readFailed;
  override readonly access = 'read';
  protected override readonly pathParameters = ['path'];
  private readonly options: CheckedOptions;

  /** Throws when the model takes neither images nor videos (no `image_in` / `video_in`), or on an invalid option. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: ReadMediaFileOptions = {},
  ) {
    super(runtime);
    this.options = checkedOptions(options);
    const { capabilities } = this.options;
    if (!isReadMediaFileAvailable({ capabilities })) throw new Error(NO_MEDIA_CAPABILITY_MESSAGE);
    this.description = describeReadMediaFile(supportedMediaKinds({ capabilities }), this.options);
  }

  /** Applies no change, so there are no observer sections to collect. */
  protected override collectsChangeSections(): boolean {
    return false;
  }

  protected override failureMessage(params: ReadMediaFileParams, error: string): string {
    return readFailedMessage(params.path, error);
  }

  protected async execute(params: ReadMediaFileParams): Promise<ToolReturnValue<ReadMediaFileBrief>> {
    // The path policy, sensitive files first as in ReadFile, then one descriptor for every check and the read: the
    // path may become a FIFO or another file at any moment.
    const opened = await openFileToRead(this.runtime, params.path, this);
    if (!opened.ok) return opened.error;
    const { handle, stats, path } = opened.file;
    const { real } = path;
    const { capabilities } = this.options;
    let bytes: Uint8Array;
    let kind: MediaKind | 'pdf';
    let mime: string;
    try {
      const fileKind = await detectFileKind(real, await readHandleUpTo(handle, FILE_HEAD_BYTES));
      if (fileKind.kind === 'text') return textFileError(params.path);
      if (fileKind.kind === 'binary') return notMediaError(params.path);
      ({ kind, mime } =
        fileKind.kind === 'pdf' ? { kind: 'pdf' as const, mime: 'application/pdf' } : fileKind);
      if (kind !== 'pdf' && !capabilities.includes(CAPABILITY[kind])) return unsupportedMediaError(kind);
      const misplaced = misplacedParameter(params, kind);
      if (misplaced) return parameterNotApplicableError(params.path, misplaced, kind);

      if (stats.size === 0) return emptyFileError(real);
      if (stats.size > MAX_MEDIA_BYTES) return tooLargeError(real, stats.size);
      // The file may grow or shrink after the stat; judge what was actually read.
      bytes = await readHandleUpTo(handle, MAX_MEDIA_BYTES + 1, stats.size + 1);
      if (bytes.length === 0) return emptyFileError(real);
      if (bytes.length > MAX_MEDIA_BYTES) return tooLargeError(real, (await handle.stat()).size);
    } finally {
      await handle.close();
    }

    const { maxImageEdge: maxEdge, maxImageBytes: maxBytes } = this.options;
    if (kind === 'pdf') {
      const imageIn = capabilities.includes('image_in');
      return readPdf({ realPath: real, bytes, pages: params.pages, imageIn, maxEdge, maxBytes });
    }
    if (kind === 'image') {
      return readImage({
        realPath: real,
        mime,
        bytes,
        region: params.region,
        fullResolution: params.full_resolution ?? false,
        maxEdge,
        maxBytes,
        loadImageLibrary: this.options.loadImageLibrary,
      });
    }
    const upload = this.options.uploadVideo;
    const url = upload ? await uploadedUrl(upload, bytes, mime) : toDataUrl(bytes, mime);
    return toolOk({
      output: mediaParts(kind, real, url),
      message: loadedMessage(kind, real, mime, bytes.length),
      extras: { kind, mime, size: bytes.length },
    });
  }
}

/** The first argument given that does not apply to this kind of file. */
function misplacedParameter(
  params: ReadMediaFileParams,
  kind: MediaKind | 'pdf',
): 'region' | 'full_resolution' | 'pages' | undefined {
  if (kind !== 'image' && params.region !== undefined) return 'region';
  // `full_resolution: false` is what the model sends when it means nothing: only `true` is out of place.
  if (kind !== 'image' && params.full_resolution === true) return 'full_resolution';
  if (kind !== 'pdf' && params.pages !== undefined) return 'pages';
  return undefined;
}

/** The URL the runtime's upload hook gives for a video; a hook that gives none is an error, not an empty part. */
async function uploadedUrl(upload: UploadVideo, bytes: Uint8Array, mime: string): Promise<string> {
  const url: unknown = await upload(bytes, mime);
  if (typeof url !== 'string' || url === '') throw new Error(NO_UPLOAD_URL_MESSAGE);
  return url;
}

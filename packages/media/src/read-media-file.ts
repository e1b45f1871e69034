import fs from 'node:fs/promises';
import {
  CallableTool,
  detectFileKind,
  functionOption,
  readFileHead,
  readFileUpTo,
  fileNotFoundError,
  notAFileError,
  toolError,
  toolOk,
  type ToolReturnValue,
  type ToolRuntime,
  statIfExists,
} from '@kimi-tools/core';
import { z } from 'zod';
import {
  isReadMediaFileAvailable,
  supportedMediaKinds,
  type Capability,
  type MediaKind,
} from './availability.js';
import { describeReadMediaFile } from './description.js';
import { readImageDimensions, type ImageDimensions } from './image-dimensions.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import { mediaParts, toDataUrl } from './media-parts.js';

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

/** Uploads a video and returns the URL the model should see instead of a data URL. */
export type UploadVideo = (bytes: Uint8Array, mime: string) => Promise<string>;

/** Options of {@link ReadMediaFile}. */
export interface ReadMediaFileOptions {
  /** What the model can take in: `image_in`, `video_in` or both (at least one, or the tool cannot be made). */
  capabilities?: readonly Capability[];
  /** Uploads videos instead of inlining them as data URLs; the model sees the URL it returns. */
  uploadVideo?: UploadVideo;
}

const CAPABILITY: Record<MediaKind, Capability> = { image: 'image_in', video: 'video_in' };
const CAPABILITIES: readonly Capability[] = ['image_in', 'video_in'];

/** The capabilities option, checked: only known capabilities. */
function capabilitiesOption(value: readonly Capability[] | undefined): readonly Capability[] {
  const capabilities = [...(value ?? [])];
  const unknown = capabilities.find((capability) => !CAPABILITIES.includes(capability));
  if (unknown !== undefined) {
    throw new Error(
      `ReadMediaFile: capabilities must hold only 'image_in' and 'video_in', got ${JSON.stringify(unknown)}.`,
    );
  }
  return capabilities;
}

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
  return `Loaded ${kind} file \`${realPath}\` (${mime}, ${size} bytes${sizeHint}). ${AFTER_LOAD_ADVICE}`;
}

/**
 * ReadMediaFile: hands an image or video file to a multimodal model as an `image_url` / `video_url` part wrapped
 * in `<image path="...">` / `<video path="...">` text parts. Offer it only when {@link isReadMediaFileAvailable}.
 */
export class ReadMediaFile extends CallableTool<typeof ReadMediaFileParams> {
  readonly name = 'ReadMediaFile';
  readonly description: string;
  readonly params = ReadMediaFileParams;
  protected readonly failureBrief = 'Failed to read file';
  private readonly capabilities: readonly Capability[];
  private readonly uploadVideo: UploadVideo | undefined;

  /** Throws when the model takes neither images nor videos (no `image_in` / `video_in`), or on an invalid option. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: ReadMediaFileOptions = {},
  ) {
    super();
    this.capabilities = capabilitiesOption(options.capabilities);
    this.uploadVideo = functionOption('ReadMediaFile', 'uploadVideo', options.uploadVideo);
    if (!isReadMediaFileAvailable({ capabilities: this.capabilities })) {
      throw new Error(
        "ReadMediaFile needs a model with image or video input: pass capabilities ['image_in'] and/or ['video_in'] " +
          '(new ReadMediaFile(runtime, { capabilities })), and offer the tool only when ' +
          'isReadMediaFileAvailable({ capabilities }) is true.',
      );
    }
    this.description = describeReadMediaFile(supportedMediaKinds({ capabilities: this.capabilities }));
  }

  protected override failureMessage(params: ReadMediaFileParams, error: string): string {
    return `Failed to read ${params.path}. Error: ${error}`;
  }

  protected async execute(params: ReadMediaFileParams): Promise<ToolReturnValue> {
    const resolution = await this.runtime.paths.resolveFile(params.path, 'read');
    if (!resolution.ok) return resolution.error;
    const { absolute, real } = resolution.path;

    const stats = await statIfExists(real);
    if (!stats) return fileNotFoundError(params.path, absolute, this.runtime.workDir);
    if (!stats.isFile()) return notAFileError(params.path);

    const fileKind = await detectFileKind(real, await readFileHead(real));
    if (fileKind.kind === 'text') {
      return toolError({
        message: `\`${params.path}\` is a text file. Use ReadFile to read text files.`,
        brief: 'Unsupported file type',
      });
    }
    if (fileKind.kind === 'binary') {
      return toolError({
        message:
          `\`${params.path}\` seems not readable as an image or video file. You may need to read it with proper ` +
          'shell commands, Python tools or MCP tools if available. If you read/operate it with Python, you MUST ' +
          'ensure that any third-party packages are installed in a virtual environment (venv).',
        brief: 'File not readable',
      });
    }
    const { kind, mime } = fileKind;
    if (!this.capabilities.includes(CAPABILITY[kind])) {
      return toolError({
        message: `The current model does not support ${kind} input. Tell the user to use a model with ${kind} input capability.`,
        brief: 'Unsupported media type',
      });
    }

    if (stats.size === 0) return isEmpty(real);
    if (stats.size > MAX_MEDIA_BYTES) return tooLarge(real, stats.size);
    // The file may change between the checks and the read; judge what was actually read.
    const bytes = await readFileUpTo(real, MAX_MEDIA_BYTES + 1);
    if (bytes.length === 0) return isEmpty(real);
    if (bytes.length > MAX_MEDIA_BYTES) return tooLarge(real, (await fs.stat(real)).size);

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
  if (typeof url !== 'string' || url === '') throw new Error('the uploadVideo hook returned no URL');
  return url;
}

function isEmpty(realPath: string): ToolReturnValue {
  return toolError({ message: `\`${realPath}\` is empty.`, brief: 'Empty file' });
}

function tooLarge(realPath: string, size: number): ToolReturnValue {
  return toolError({
    message: `\`${realPath}\` is ${size} bytes, which exceeds the max 100MB bytes for media files.`,
    brief: 'File too large',
  });
}

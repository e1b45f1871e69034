import { choicesOption, functionOption, positiveNumberOption } from '@kimi-tools/core/toolkit';
import type { Capability } from './availability.js';
import type { LoadImageLibrary } from './image-library.js';
import {
  DEFAULT_MAX_IMAGE_BYTES,
  DEFAULT_MAX_IMAGE_EDGE,
  MIN_MAX_IMAGE_BYTES,
  MIN_MAX_IMAGE_EDGE,
} from './limits.js';

/** Uploads a video and returns the URL the model should see instead of a data URL. */
export type UploadVideo = (bytes: Uint8Array, mime: string) => Promise<string>;

/** Options of `ReadMediaFile`. */
export interface ReadMediaFileOptions {
  /** What the model can take in: `image_in`, `video_in` or both (at least one, or the tool cannot be made). */
  capabilities?: readonly Capability[];
  /** Uploads videos instead of inlining them as data URLs; the model sees the URL it returns. */
  uploadVideo?: UploadVideo;
  /** Longest edge, in pixels, of an image sent to the model (default 2000); larger images are scaled down. */
  maxImageEdge?: number;
  /** Most bytes of base64 one image may take (default 4 MiB); larger images are scaled down and re-encoded. */
  maxImageBytes?: number;
  /** Loads the image library (default: `import('sharp')`); for hosts that bundle or provide their own `sharp`. */
  loadImageLibrary?: LoadImageLibrary;
}

/** {@link ReadMediaFileOptions}, checked and with their defaults. */
export interface CheckedOptions {
  capabilities: Capability[];
  uploadVideo: UploadVideo | undefined;
  maxImageEdge: number;
  maxImageBytes: number;
  loadImageLibrary: LoadImageLibrary | undefined;
}

const CAPABILITIES: readonly Capability[] = ['image_in', 'video_in'];

function atLeast(name: string, value: number, minimum: number): number {
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(
      `ReadMediaFile option ${name} must be a whole number of at least ${minimum}, got ${value}.`,
    );
  }
  return value;
}

/** The options, checked: only known capabilities, functions for the hooks, whole limits above their minimum. */
export function checkedOptions(options: ReadMediaFileOptions): CheckedOptions {
  const edge = positiveNumberOption(
    'ReadMediaFile',
    'maxImageEdge',
    options.maxImageEdge,
    DEFAULT_MAX_IMAGE_EDGE,
  );
  const bytes = positiveNumberOption(
    'ReadMediaFile',
    'maxImageBytes',
    options.maxImageBytes,
    DEFAULT_MAX_IMAGE_BYTES,
  );
  return {
    capabilities: choicesOption('ReadMediaFile', 'capabilities', options.capabilities, CAPABILITIES),
    uploadVideo: functionOption('ReadMediaFile', 'uploadVideo', options.uploadVideo),
    maxImageEdge: atLeast('maxImageEdge', edge, MIN_MAX_IMAGE_EDGE),
    maxImageBytes: atLeast('maxImageBytes', bytes, MIN_MAX_IMAGE_BYTES),
    loadImageLibrary: functionOption('ReadMediaFile', 'loadImageLibrary', options.loadImageLibrary),
  };
}

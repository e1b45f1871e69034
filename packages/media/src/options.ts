import { choicesOption, functionOption } from '@kimi-tools/core/toolkit';
import type { Capability } from './availability.js';

/** Uploads a video and returns the URL the model should see instead of a data URL. */
export type UploadVideo = (bytes: Uint8Array, mime: string) => Promise<string>;

/** Options of `ReadMediaFile`. */
export interface ReadMediaFileOptions {
  /** What the model can take in: `image_in`, `video_in` or both (at least one, or the tool cannot be made). */
  capabilities?: readonly Capability[];
  /** Uploads videos instead of inlining them as data URLs; the model sees the URL it returns. */
  uploadVideo?: UploadVideo;
}

const CAPABILITIES: readonly Capability[] = ['image_in', 'video_in'];

/** The options, checked: only known capabilities, and a function for the hook. */
export function checkedOptions(
  options: ReadMediaFileOptions,
): Required<Pick<ReadMediaFileOptions, 'capabilities'>> & Pick<ReadMediaFileOptions, 'uploadVideo'> {
  return {
    capabilities: choicesOption('ReadMediaFile', 'capabilities', options.capabilities, CAPABILITIES),
    uploadVideo: functionOption('ReadMediaFile', 'uploadVideo', options.uploadVideo),
  };
}

import { renderDescription } from '@kimi-tools/core/toolkit';
import type { MediaKind } from './availability.js';
import { MAX_MEDIA_BYTES } from './limits.js';
import template from './read-media-file.md';

const FORMATS: Record<MediaKind, string> = {
  image: 'images in PNG, JPEG, GIF, BMP, TIFF, WebP, ICO, HEIC/HEIF and AVIF',
  video: 'videos in MP4, MKV, AVI, MOV, WMV, WebM, M4V, FLV, 3GP and 3G2',
};

function supportedMediaText(kinds: readonly MediaKind[]): string {
  if (kinds.includes('image') && kinds.includes('video')) {
    return 'The current model supports image and video input: you can read both images and videos.';
  }
  if (kinds.includes('image')) {
    return 'The current model supports image input only: you can read images, but not videos.';
  }
  return 'The current model supports video input only: you can read videos, but not images.';
}

/** The ReadMediaFile description for a model that takes the given kinds of media (at least one). */
export function describeReadMediaFile(kinds: readonly MediaKind[]): string {
  const values: Record<string, string> = {
    MEDIA_NOUN: kinds.length === 1 ? (kinds[0] === 'image' ? 'an image' : 'a video') : 'an image or video',
    SUPPORTED_MEDIA: supportedMediaText(kinds),
    MEDIA_FORMATS: kinds.map((kind) => FORMATS[kind]).join('; '),
    MAX_MEDIA_MB: String(MAX_MEDIA_BYTES / (1024 * 1024)),
  };
  return renderDescription(template, values, 'read-media-file.md');
}

import { renderDescription } from '@kimi-tools/core/toolkit';
import type { MediaKind } from './availability.js';
import { MAX_MEDIA_BYTES, MAX_PDF_PAGES } from './limits.js';
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

function imageTips(maxImageEdge: number): string {
  return (
    `- An image larger than ${maxImageEdge}px on its long edge, or too large in bytes, is sent as a scaled-down ` +
    'copy; the result states the original size and the size sent. If you output coordinates, give them relative to ' +
    'the image first, then compute absolute coordinates from the original size.\n' +
    '- To read small text or detail, pass `region` (x, y, width, height in pixels of the original image) to get that ' +
    'part alone, or `full_resolution: true` to get the original pixels when the file is small enough.\n'
  );
}

/** The ReadMediaFile description for a model that takes the given kinds of media (at least one). */
export function describeReadMediaFile(kinds: readonly MediaKind[], limits: { maxImageEdge: number }): string {
  const images = kinds.includes('image');
  const values: Record<string, string> = {
    MEDIA_NOUN: kinds.length === 1 ? (kinds[0] === 'image' ? 'an image' : 'a video') : 'an image or video',
    SUPPORTED_MEDIA: supportedMediaText(kinds),
    MEDIA_FORMATS: [...kinds.map((kind) => FORMATS[kind]), 'PDF documents'].join('; '),
    MAX_MEDIA_MB: String(MAX_MEDIA_BYTES / (1024 * 1024)),
    IMAGE_TIPS: images ? imageTips(limits.maxImageEdge) : '',
    MAX_PDF_PAGES: String(MAX_PDF_PAGES),
    PDF_IMAGE_TIP: images
      ? 'A page without a text layer (a scan) is sent as an image.'
      : 'A page without a text layer (a scan) is named, as you cannot see images.',
  };
  return renderDescription(template, values, 'read-media-file.md');
}

import { quotedPath } from '@kimi-tools/core/toolkit';
import type { MediaKind } from './availability.js';
import { describeRegion } from './errors.js';
import type { FittedImage, ImageFacts, Region } from './image-fit.js';
import type { ImageDimensions } from './image-dimensions.js';

const AFTER_LOAD_ADVICE =
  'If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the ' +
  'original image size; if you generate or edit images/videos via commands or scripts, read the result back ' +
  'immediately before continuing.';

/** docs/read-media-file.md#message: a file sent as it is. */
export function loadedMessage(
  kind: MediaKind,
  realPath: string,
  mime: string,
  size: number,
  dims?: ImageDimensions,
): string {
  const sizeHint = dims ? `, original size ${dims.width}x${dims.height}px` : '';
  return `Loaded ${kind} file ${quotedPath(realPath)} (${mime}, ${size} bytes${sizeHint}). ${AFTER_LOAD_ADVICE}`;
}

/** What {@link fittedImageMessage} tells. */
export interface FittedImageFacts {
  realPath: string;
  mime: string;
  size: number;
  original: ImageFacts;
  sent: FittedImage;
  region: Region | undefined;
  converted: boolean;
  scaled: boolean;
  maxEdge: number;
  maxBytes: number;
  fullResolution: boolean;
  originalBase64: number;
}

/** docs/read-media-file.md#message: an image sent as a changed copy, with both sizes and why it changed. */
export function fittedImageMessage(facts: FittedImageFacts): string {
  const { original, sent, region } = facts;
  const subject = region ? `the region ${describeRegion(region)}` : 'a copy';
  const notes: string[] = [];
  if (original.frames > 1) notes.push(`It is animated (${original.frames} frames): this is its first frame.`);
  if (original.rotated)
    notes.push('Its EXIF orientation was applied: sizes and coordinates are of the upright image.');
  if (facts.converted) notes.push(`It was converted from ${facts.mime} to ${sent.mime}, which models take.`);
  if (facts.fullResolution && facts.originalBase64 > facts.maxBytes) {
    notes.push(
      `full_resolution was not possible: the original is ${facts.originalBase64} bytes of base64, over the ` +
        `${facts.maxBytes}-byte budget.`,
    );
  }
  if (facts.scaled) {
    const limits =
      facts.fullResolution && facts.originalBase64 <= facts.maxBytes
        ? `${facts.maxBytes} bytes of base64`
        : `${facts.maxEdge}px on its long edge and ${facts.maxBytes} bytes of base64`;
    notes.push(`It was scaled down to fit ${limits}; to see fine detail, read a part of it with region.`);
  }
  if (region) notes.push(`Its top-left corner is at x=${region.x}, y=${region.y} of the original.`);
  return (
    `Loaded image file ${quotedPath(facts.realPath)} (${facts.mime}, ${facts.size} bytes, original size ` +
    `${original.width}x${original.height}px). Sent ${subject} as ${sent.mime}, ${sent.width}x${sent.height}px, ` +
    `${sent.bytes.length} bytes. ${notes.map((note) => `${note} `).join('')}${AFTER_LOAD_ADVICE}`
  );
}

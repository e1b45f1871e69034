import { toolOk, type ToolReturnValue } from '@kimi-tools/core';
import {
  imageDecodeError,
  imageLibraryMissingError,
  imageTooLargeToFitError,
  regionOutsideError,
  type ReadMediaFileBrief,
} from './errors.js';
import { base64Length, fitImage, inspectImage, type ImageFacts, type Region } from './image-fit.js';
import { loadSharp, tryLoadImageLibrary, type LoadImageLibrary } from './image-library.js';
import { readImageDimensions, type StoredImageDimensions } from './image-dimensions.js';
import { fittedImageMessage, loadedMessage } from './messages.js';
import { mediaParts, toDataUrl } from './media-parts.js';

/** What the image part of a call needs: the file, the model's arguments and the limits of the tool's options. */
export interface ImageRequest {
  realPath: string;
  mime: string;
  bytes: Uint8Array;
  region: Region | undefined;
  fullResolution: boolean;
  maxEdge: number;
  maxBytes: number;
  loadImageLibrary: LoadImageLibrary | undefined;
}

/** Formats models rarely accept as they are: converted to PNG or JPEG whenever the image library can. */
const CONVERTED_MIMES = new Set(['image/tiff', 'image/heic', 'image/heif', 'image/avif']);

/** Formats that may be animated: only the image library can count their frames. */
const MAYBE_ANIMATED_MIMES = new Set(['image/gif', 'image/webp']);

/**
 * docs/read-media-file.md#images: the image unchanged when it fits the limits, else a fitted copy. The image library
 * is loaded only when the image may need it, so a small PNG costs no more than it always did.
 */
export async function readImage(request: ImageRequest): Promise<ToolReturnValue<ReadMediaFileBrief>> {
  const { bytes, mime, realPath, region, fullResolution, maxEdge, maxBytes } = request;
  const overBudget = base64Length(bytes.length) > maxBytes;
  const mustChange = overBudget || region !== undefined;
  // The stored size only decides whether an image may go unchanged: one that must change goes through the image
  // library, which reads the size itself, so the header reader is not even loaded for it.
  const stored = mustChange ? undefined : await readImageDimensions(bytes);
  const overEdge = stored !== undefined && Math.max(stored.width, stored.height) > maxEdge && !fullResolution;
  const mayChange =
    overEdge || stored?.rotated === true || CONVERTED_MIMES.has(mime) || MAYBE_ANIMATED_MIMES.has(mime);
  if (!mustChange && !mayChange) return unchanged(request, stored);

  const loaded = await tryLoadImageLibrary(request.loadImageLibrary ?? loadSharp);
  if (!loaded.ok) {
    // Within the budget an image goes as it always did; only what cannot be sent without the library is refused.
    if (!mustChange) return unchanged(request, stored);
    return imageLibraryMissingError(
      realPath,
      loaded.reason,
      region !== undefined,
      base64Length(bytes.length),
      maxBytes,
    );
  }
  const library = loaded.library;

  let facts: ImageFacts;
  try {
    facts = await inspectImage(library, bytes);
  } catch (error) {
    if (!mustChange && !CONVERTED_MIMES.has(mime)) return unchanged(request, stored);
    return imageDecodeError(realPath, mime, error);
  }
  const animated = facts.frames > 1;
  if (!mustChange && !overEdge && !facts.rotated && !animated && !CONVERTED_MIMES.has(mime)) {
    return unchanged(request, stored);
  }
  if (region && (region.x + region.width > facts.width || region.y + region.height > facts.height)) {
    return regionOutsideError(region, facts);
  }

  let fitted;
  try {
    fitted = await fitImage(library, bytes, facts, {
      // full_resolution sends the original pixels only when the original fits; otherwise the image is fitted as usual.
      maxEdge: fullResolution && !overBudget ? Number.MAX_SAFE_INTEGER : maxEdge,
      maxBytes,
      region,
    });
  } catch (error) {
    return imageDecodeError(realPath, mime, error);
  }
  if (!fitted) return imageTooLargeToFitError(realPath, maxBytes);

  const sentWidth = region?.width ?? facts.width;
  const sentHeight = region?.height ?? facts.height;
  const scaled = fitted.width < sentWidth || fitted.height < sentHeight;
  return toolOk({
    output: mediaParts('image', realPath, toDataUrl(fitted.bytes, fitted.mime)),
    message: fittedImageMessage({
      realPath,
      mime,
      size: bytes.length,
      original: facts,
      sent: fitted,
      region,
      converted: CONVERTED_MIMES.has(mime),
      scaled,
      maxEdge,
      maxBytes,
      fullResolution,
      originalBase64: base64Length(bytes.length),
    }),
    extras: {
      kind: 'image',
      mime,
      size: bytes.length,
      width: facts.width,
      height: facts.height,
      sent: {
        mime: fitted.mime,
        size: fitted.bytes.length,
        width: fitted.width,
        height: fitted.height,
        ...(region ? { region } : {}),
        ...(animated ? { frame: 1, frames: facts.frames } : {}),
      },
    },
  });
}

/** The file's own bytes, as the tool always sent an image that fits. */
function unchanged(
  request: ImageRequest,
  stored: StoredImageDimensions | undefined,
): ToolReturnValue<ReadMediaFileBrief> {
  const { realPath, mime, bytes } = request;
  const dims = stored && { width: stored.width, height: stored.height };
  return toolOk({
    output: mediaParts('image', realPath, toDataUrl(bytes, mime)),
    message: loadedMessage('image', realPath, mime, bytes.length, dims),
    extras: { kind: 'image', mime, size: bytes.length, ...(dims ?? {}) },
  });
}

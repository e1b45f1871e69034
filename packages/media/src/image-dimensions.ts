import { imageSize } from 'image-size';

/** Pixel size of an image as stored in the file. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/** The stored width and height of an image, or undefined when image-size cannot read this format or file. */
export function readImageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  try {
    const { width, height } = imageSize(bytes);
    if (width > 0 && height > 0) return { width, height };
  } catch {
    // Unknown or damaged formats just go without the size hint.
  }
  return undefined;
}

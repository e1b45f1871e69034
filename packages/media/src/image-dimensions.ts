import { imageSize } from 'image-size';

/** Pixel size of an image as stored in the file. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/** The stored size, and whether an EXIF orientation asks for the image to be turned or flipped to be viewed. */
export interface StoredImageDimensions extends ImageDimensions {
  rotated: boolean;
}

/** The stored width and height of an image, or undefined when image-size cannot read this format or file. */
export function readImageDimensions(bytes: Uint8Array): StoredImageDimensions | undefined {
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (width > 0 && height > 0) return { width, height, rotated: (orientation ?? 1) > 1 };
  } catch {
    // Unknown or damaged formats just go without the size hint.
  }
  return undefined;
}

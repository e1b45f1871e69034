/** Pixel size of an image as stored in the file. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/** The stored size, and whether an EXIF orientation asks for the image to be turned or flipped to be viewed. */
export interface StoredImageDimensions extends ImageDimensions {
  rotated: boolean;
}

/**
 * The stored width and height of an image, or undefined when image-size cannot read this format or file. image-size
 * (a few dozen modules, tens of milliseconds to load) is imported on the first image that needs it, not with the
 * package: PDFs, videos and images bound for the image library never pay for it.
 */
export async function readImageDimensions(bytes: Uint8Array): Promise<StoredImageDimensions | undefined> {
  const { imageSize } = await import('image-size');
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (width > 0 && height > 0) return { width, height, rotated: (orientation ?? 1) > 1 };
  } catch {
    // Unknown or damaged formats just go without the size hint.
  }
  return undefined;
}

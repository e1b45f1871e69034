import type { ImageLibrary } from './image-library.js';

/** A rectangle in pixels of the upright original image. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the image library reads from an image's header. */
export interface ImageFacts {
  /** Upright size: EXIF orientation applied. */
  width: number;
  height: number;
  /** Frames of an animated image (1 for a still one). */
  frames: number;
  /** An EXIF orientation other than "as stored". */
  rotated: boolean;
  /** Transparency or a palette: a PNG keeps it exact, where JPEG would blur flat colours and drop alpha. */
  keepPng: boolean;
}

/** The image as the model receives it. */
export interface FittedImage {
  bytes: Uint8Array;
  mime: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

/** Size of `bytes` bytes in base64, the form a model receives an image in. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** The header facts of an image; throws when the library cannot read it. */
export async function inspectImage(library: ImageLibrary, bytes: Uint8Array): Promise<ImageFacts> {
  const meta = await library(bytes).metadata();
  const upright = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return {
    width: upright.width,
    height: upright.height,
    frames: meta.pages ?? 1,
    rotated: (meta.orientation ?? 1) > 1,
    keepPng: meta.hasAlpha || meta.isPalette || meta.format === 'gif',
  };
}

/** Each step shrinks the image further when no encoding of the previous size fits the budget. */
const SCALE_STEPS = [1, 0.75, 0.5, 0.35, 0.25, 0.18, 0.125, 0.09, 0.0625];
const JPEG_QUALITIES = [85, 70, 55];

/**
 * The first frame, upright, cropped to `region`, scaled to at most `maxEdge` on its long edge, encoded as PNG
 * (lossless, then a 256-colour palette) or JPEG (a quality ladder), shrinking further until its base64 is at most
 * `maxBytes`. Undefined when even the smallest step does not fit. Throws when the library cannot decode the image.
 */
export async function fitImage(
  library: ImageLibrary,
  bytes: Uint8Array,
  facts: ImageFacts,
  target: { maxEdge: number; maxBytes: number; region?: Region | undefined },
): Promise<FittedImage | undefined> {
  const scaled = () => {
    let pipeline = library(bytes, { animated: false }).autoOrient();
    if (target.region) {
      const { x, y, width, height } = target.region;
      pipeline = pipeline.extract({ left: x, top: y, width, height });
    }
    return pipeline
      .resize({ width: target.maxEdge, height: target.maxEdge, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
  };
  const fits = (out: Buffer) => base64Length(out.length) <= target.maxBytes;

  // The first rung of the JPEG ladder fits nearly every photo: encoded straight from the file, libvips decodes,
  // scales and encodes in one threaded pass, about a third faster than going through the raw pixels below. Its
  // bytes are the same as the raw path's; when it does not fit, the ladder decodes once more.
  const [firstQuality, ...lowerQualities] = JPEG_QUALITIES;
  if (!facts.keepPng) {
    const { data, info } = await scaled()
      .jpeg({ quality: firstQuality, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    if (fits(data)) return { bytes: data, mime: 'image/jpeg', width: info.width, height: info.height };
  }

  // Decoded and scaled once: every rung of the ladder re-encodes these pixels instead of decoding the file again.
  const { data, info } = await scaled().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };

  for (const scale of SCALE_STEPS) {
    const width = Math.max(1, Math.round(info.width * scale));
    const height = Math.max(1, Math.round(info.height * scale));
    const pixels = () => {
      const image = library(data, raw);
      return scale === 1 ? image : image.resize(width, height, { fit: 'fill' });
    };
    // At full scale the first JPEG quality was tried above.
    const qualities = scale === 1 ? lowerQualities : JPEG_QUALITIES;
    const encodings = facts.keepPng
      ? [() => pixels().png(), () => pixels().png({ palette: true, quality: 80 })]
      : qualities.map((quality) => () => pixels().jpeg({ quality, mozjpeg: false }));
    for (const encode of encodings) {
      const out = await encode().toBuffer();
      if (fits(out)) return { bytes: out, mime: facts.keepPng ? 'image/png' : 'image/jpeg', width, height };
    }
  }
  return undefined;
}

import type sharpModule from 'sharp';

/** The image library: `sharp`'s default export. */
export type ImageLibrary = typeof sharpModule;

/** Loads the image library; rejects when it is not installed or cannot load on this platform. */
export type LoadImageLibrary = () => Promise<ImageLibrary>;

/** `sharp` is an optional dependency, imported on first need only: plain reads never pay for loading libvips. */
export async function loadSharp(): Promise<ImageLibrary> {
  const loaded = (await import('sharp')) as { default?: ImageLibrary } & ImageLibrary;
  return loaded.default ?? loaded;
}

/** The library, or why it could not be loaded (the first line of the error, for the message). */
export async function tryLoadImageLibrary(
  load: LoadImageLibrary,
): Promise<{ ok: true; library: ImageLibrary } | { ok: false; reason: string }> {
  try {
    return { ok: true, library: await load() };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: text.split('\n')[0]!.slice(0, 300) };
  }
}

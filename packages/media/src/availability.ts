/** The kinds of media a model can take in. */
export type MediaKind = 'image' | 'video';

/** A model capability ReadMediaFile depends on: `image_in` (images) or `video_in` (videos). */
export type Capability = 'image_in' | 'video_in';

/** What {@link supportedMediaKinds} and {@link isReadMediaFileAvailable} look at: ReadMediaFile's `capabilities`. */
export interface MediaCapabilities {
  /** What the model can take in (none when not given). */
  capabilities?: readonly Capability[];
}

/** The kinds of media the model accepts, from its `image_in` / `video_in` capabilities. */
export function supportedMediaKinds(options: MediaCapabilities): MediaKind[] {
  const capabilities = options.capabilities ?? [];
  const kinds: MediaKind[] = [];
  if (capabilities.includes('image_in')) kinds.push('image');
  if (capabilities.includes('video_in')) kinds.push('video');
  return kinds;
}

/** Whether ReadMediaFile can be offered with these options: the model takes images or videos in. */
export function isReadMediaFileAvailable(options: MediaCapabilities): boolean {
  return supportedMediaKinds(options).length > 0;
}

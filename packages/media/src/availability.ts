import type { ToolRuntime } from '@kimi-tools/core';

/** The kinds of media a model can take in. */
export type MediaKind = 'image' | 'video';

/** The kinds of media the runtime's model accepts, from its `image_in` / `video_in` capabilities. */
export function supportedMediaKinds(runtime: Pick<ToolRuntime, 'capabilities'>): MediaKind[] {
  const kinds: MediaKind[] = [];
  if (runtime.capabilities.includes('image_in')) kinds.push('image');
  if (runtime.capabilities.includes('video_in')) kinds.push('video');
  return kinds;
}

/** Whether ReadMediaFile can be offered with this runtime: its model takes images or videos in. */
export function isReadMediaFileAvailable(runtime: Pick<ToolRuntime, 'capabilities'>): boolean {
  return supportedMediaKinds(runtime).length > 0;
}

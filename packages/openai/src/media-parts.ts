import type { ModelMediaPart } from '@kimi-tools/core/toolkit';

/** The image types OpenAI's chat completions and responses APIs take as image inputs. */
export const OPENAI_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);

/** Whether OpenAI takes a media part: an image of a type it reads, inline or by URL (it takes no video). */
export function openaiAccepts(part: ModelMediaPart): boolean {
  if (part.type === 'media-url') return part.mediaType?.startsWith('image/') === true;
  return OPENAI_IMAGE_TYPES.has(part.mediaType);
}

/** The URL OpenAI fetches an image from: the URL itself, or the inline bytes as a `data:` URL. */
export function imageUrl(part: ModelMediaPart): string {
  return part.type === 'media-url' ? part.url : `data:${part.mediaType};base64,${part.data}`;
}

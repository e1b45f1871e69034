import { acceptsMediaTypes, type ModelMediaPart } from '@kimi-tools/core/toolkit';

/** The image types OpenAI's chat completions and responses APIs take as image inputs. */
const OPENAI_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** Whether OpenAI takes a media part: an image of a type it reads, inline or by URL (it takes no video). */
export const openaiAccepts: (part: ModelMediaPart) => boolean = acceptsMediaTypes(OPENAI_IMAGE_TYPES);

/** The URL OpenAI fetches an image from: the URL itself, or the inline bytes as a `data:` URL. */
export function imageUrl(part: ModelMediaPart): string {
  return part.type === 'media-url' ? part.url : `data:${part.mediaType};base64,${part.data}`;
}

import type { ModelContent, ModelPart } from './model-content.js';

/** A media part of a model's content: bytes, or a URL. */
export type ModelMediaPart = Exclude<ModelPart, { type: 'text' }>;

/** What a model reads in place of media its API does not take: `[{mediaType} content left out: ...]`. */
export function mediaLeftOutText(mediaType: string | undefined): string {
  return `[${mediaType ?? 'media'} content left out: this model's API does not take it]`;
}

/**
 * `content` with each media part `accepts` refuses replaced by a text part saying so ({@link mediaLeftOutText}), for
 * an API that takes some media only (Anthropic and OpenAI take images of four types, and no video): one part the
 * API would refuse would otherwise fail the whole request, where the model can do without it.
 */
export function keepAcceptedMedia(
  content: ModelContent,
  accepts: (part: ModelMediaPart) => boolean,
): ModelContent {
  return {
    isError: content.isError,
    parts: content.parts.map((part) =>
      part.type === 'text' || accepts(part) ? part : { type: 'text', text: mediaLeftOutText(part.mediaType) },
    ),
  };
}

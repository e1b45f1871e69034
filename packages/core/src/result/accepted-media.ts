import type { ModelContent, ModelPart } from './model-content.js';

/** A media part of a model's content: bytes, or a URL. */
export type ModelMediaPart = Exclude<ModelPart, { type: 'text' }>;

/** A media type as a list of accepted ones may hold it: `type/subtype`, `type/*`, or `*\/*` for any. */
export const MEDIA_TYPE_PATTERN = /^(?:\*\/\*|[\w!#$&^.+-]+\/(?:\*|[\w!#$&^.+-]+))$/;

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

/**
 * Whether a media part is of one of `mediaTypes` (each `type/subtype`, `type/*`, or `*\/*` for any, in any case): the
 * `accepts` of {@link keepAcceptedMedia} for an API that takes those types. A part's own type must be in lower case,
 * since the APIs read it as sent (`image/PNG` is no type Anthropic takes). Media by URL whose kind alone is known
 * (`image/*`: the API fetches it and sees its type then) is taken when a type of that kind is; media of no known type
 * only with `*\/*`.
 */
export function acceptsMediaTypes(mediaTypes: readonly string[]): (part: ModelMediaPart) => boolean {
  const listed = new Set(mediaTypes.map((mediaType) => mediaType.toLowerCase()));
  const kinds = new Set([...listed].map(kindOf));
  return (part) => {
    if (listed.has('*/*')) return true;
    const mediaType = part.mediaType;
    if (mediaType === undefined) return false;
    const kind = kindOf(mediaType);
    if (listed.has(mediaType) || listed.has(`${kind}/*`)) return true;
    return part.type === 'media-url' && mediaType === `${kind}/*` && kinds.has(kind);
  };
}

/** `image` of `image/png`. */
function kindOf(mediaType: string): string {
  return mediaType.split('/', 1)[0]!;
}

import { modelText, type ModelContent, type ModelPart } from '@kimi-tools/core';
import type { Tool } from 'ai';

/** What a tool's `toModelOutput` returns (the `ai` package does not export the type by name). */
export type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool<unknown, unknown>['toModelOutput']>>>;

/** Which AI SDK major is asking: their tool-result content parts differ (see {@link toToolResultOutput}). */
export type AiSdkMajor = 5 | 6;

type ContentValue = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

function isImage(mediaType: string | undefined): boolean {
  return mediaType?.startsWith('image/') === true;
}

/** One part in AI SDK 6's vocabulary: images as image parts, other media as file parts. */
function partForV6(part: ModelPart): ContentValue {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'media':
      return isImage(part.mediaType)
        ? { type: 'image-data', data: part.data, mediaType: part.mediaType }
        : { type: 'file-data', data: part.data, mediaType: part.mediaType };
    case 'media-url':
      return isImage(part.mediaType)
        ? { type: 'image-url', url: part.url }
        : { type: 'file-url', url: part.url, ...(part.mediaType ? { mediaType: part.mediaType } : {}) };
  }
}

/**
 * One part in AI SDK 5's vocabulary, which has text and inline media only: media given by URL (an uploaded video)
 * goes as its URL in text, the one form that version can carry.
 */
function partForV5(part: ModelPart): ContentValue {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'media':
      return { type: 'media', data: part.data, mediaType: part.mediaType };
    case 'media-url':
      return { type: 'text', text: part.url };
  }
}

/**
 * The AI SDK tool-result output of a result rendered by core's `toModelContent`: a failed call as `error-text` (the
 * SDK's error channel: providers that have one, such as Anthropic's `is_error`, use it), a text-only result as
 * `text`, and a result with media as `content` parts in their order.
 */
export function toToolResultOutput(content: ModelContent, major: AiSdkMajor): ToolResultOutput {
  if (content.isError) return { type: 'error-text', value: modelText(content) };
  if (content.parts.every((part) => part.type === 'text')) return { type: 'text', value: modelText(content) };
  return { type: 'content', value: content.parts.map(major === 6 ? partForV6 : partForV5) };
}

import type { ContentPart, ToolReturnValue } from './tool-result.js';
import { parseDataUrl } from './data-url.js';

/** One part of what a model is sent for a tool result: text, media bytes, or media to fetch by URL. */
export type ModelPart =
  | { type: 'text'; text: string }
  /** Media carried inline: `data` is base64, `mediaType` e.g. `image/png` or `video/mp4`. */
  | { type: 'media'; mediaType: string; data: string }
  /**
   * Media given by a URL that is not a data URL (an uploaded video, a remote image). `mediaType` is `image/*` or
   * `video/*` when the URL does not say more.
   */
  | { type: 'media-url'; url: string; mediaType?: string };

/** The one rendering of a tool result for a model (see {@link toModelContent}). */
export interface ModelContent {
  /** `true` when the call failed: send it on the API's error channel where there is one (MCP, Anthropic, AI SDK). */
  isError: boolean;
  /** What the model reads, in order; never empty. */
  parts: ModelPart[];
}

/** The text a model is sent for a result that has neither message nor output, so no API receives empty content. */
export const EMPTY_RESULT_TEXT = '(no output)';

/** Marks the message of a failed call, so a model reading only text (OpenAI `role: 'tool'`) knows the call failed. */
export const ERROR_MARKER = 'ERROR: ';

const WILDCARD_MEDIA_TYPE = { image_url: 'image/*', video_url: 'video/*' } as const;

function outputParts(output: string | ContentPart[]): ModelPart[] {
  if (typeof output === 'string') return output ? [{ type: 'text', text: output }] : [];
  const parts: ModelPart[] = [];
  for (const part of output) {
    if (part.type === 'text') {
      if (part.text) parts.push({ type: 'text', text: part.text });
      continue;
    }
    const data = parseDataUrl(part.url);
    parts.push(
      data
        ? { type: 'media', mediaType: data.mimeType, data: data.base64 }
        : { type: 'media-url', url: part.url, mediaType: WILDCARD_MEDIA_TYPE[part.type] },
    );
  }
  return parts;
}

/**
 * What a model is sent for a tool result, the same for every adapter (MCP, AI SDK, OpenAI, Anthropic). As kimi-cli
 * shows a result to its model: the message first, as one text part (it says what the output is, or what went wrong
 * and what to do next), prefixed `ERROR: ` when the call failed; then the output, text and media parts in their
 * order (media data URLs become base64 `media` parts). `brief`, `display` and `extras` are for the user and for
 * programs, never for the model. A result with neither message nor output reads {@link EMPTY_RESULT_TEXT}.
 */
export function toModelContent(result: ToolReturnValue): ModelContent {
  const parts: ModelPart[] = [];
  if (result.isError) parts.push({ type: 'text', text: ERROR_MARKER + result.message });
  else if (result.message) parts.push({ type: 'text', text: result.message });
  parts.push(...outputParts(result.output));
  if (parts.length === 0) parts.push({ type: 'text', text: EMPTY_RESULT_TEXT });
  return { isError: result.isError, parts };
}

/** Every text part of `content`, joined by newlines: the whole result for an API that takes only text. */
export function modelText(content: ModelContent): string {
  return content.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

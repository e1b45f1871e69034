import { modelText, toModelContent, type CallOptions, type ModelContent } from '@kimi-tools/core';
import {
  acceptsMediaTypes,
  keepAcceptedMedia,
  toolSetOf,
  type ModelMediaPart,
  type ToolsOrSet,
} from '@kimi-tools/core/toolkit';
import type {
  Base64ImageSource,
  ContentBlock,
  ContentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

type ImageMediaType = Base64ImageSource['media_type'];

/** The image types the messages API takes in image blocks. */
const ANTHROPIC_IMAGE_TYPES: readonly ImageMediaType[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
];

/** Whether the messages API takes a media part: an image of a type it reads, inline or by URL (no video). */
const anthropicAccepts = acceptsMediaTypes(ANTHROPIC_IMAGE_TYPES);

function imageBlock(part: ModelMediaPart): ImageBlockParam {
  return part.type === 'media-url'
    ? { type: 'image', source: { type: 'url', url: part.url } }
    : {
        type: 'image',
        source: { type: 'base64', media_type: part.mediaType as ImageMediaType, data: part.data },
      };
}

/** A result's `content`: its text, or, when it holds images, text and image blocks in their order. */
function resultContent(content: ModelContent): string | Array<TextBlockParam | ImageBlockParam> {
  if (content.parts.every((part) => part.type === 'text')) return modelText(content);
  return content.parts.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : imageBlock(part),
  );
}

/**
 * Runs the `tool_use` blocks of an assistant message's `content` (other blocks are skipped) and returns one
 * `tool_result` block per call, in order, with the call's `tool_use_id`, core's rendering of the result (text, and
 * image blocks when it holds images) and `is_error` when the call failed. Send them as the next user message:
 * `messages.push({ role: 'user', content: await runToolUses(tools, message.content) })`. Calls run in parallel;
 * this never throws.
 */
export async function runToolUses(
  tools: ToolsOrSet,
  content: readonly (ContentBlock | ContentBlockParam)[],
  options: CallOptions = {},
): Promise<ToolResultBlockParam[]> {
  const set = toolSetOf(tools);
  const uses = content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
  return Promise.all(
    uses.map(async (use) => {
      const result = keepAcceptedMedia(
        toModelContent(await set.call(use.name, use.input, options)),
        anthropicAccepts,
      );
      return {
        type: 'tool_result',
        tool_use_id: use.id,
        content: resultContent(result),
        is_error: result.isError,
      };
    }),
  );
}

import { toModelContent, type DisplayBlock, type ModelPart, type ToolReturnValue } from '@kimi-tools/core';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { fileUri, resourceName, wrapperTagPath } from './media-source.js';
import { jsonBytes, MessageBudget } from './message-budget.js';

/**
 * The `structuredContent` of a tool result, when asked for: what the user interface shows (the model never needs it).
 * `brief` and `display` are the tool's, unchanged; `extras` is present when the tool gave any.
 */
export interface StructuredToolResult {
  [key: string]: unknown;
  /** Short label for the user; `''` when none. On errors, a stable identifier such as `File not found`. */
  brief: string;
  /** Blocks for the user: the brief block first when there is a brief, then diff blocks. */
  display: DisplayBlock[];
  /** Structured data for programs, e.g. `{ replacements: 3 }`. */
  extras?: Record<string, unknown>;
}

/** How a {@link ToolReturnValue} becomes an MCP tool result. */
export interface ToCallToolResultOptions {
  /**
   * Attach brief, display and extras as `structuredContent` (default `false`). Off by default because some clients
   * (Claude Code, VS Code) hand the model `structuredContent` instead of `content` when both are present, and ours is
   * user-interface data, not the tool's output.
   */
  structuredContent?: boolean;
}

/**
 * Maps a tool result to an MCP `CallToolResult`: core's `toModelContent` (the message first, `ERROR: ` on a failure,
 * then the output's text and media parts in order; `(no output)` for an empty result), with base64 images as image
 * content, videos as embedded resources, media by URL as resource links, and `isError` as is; on request, brief,
 * display and extras as {@link StructuredToolResult}. The whole stays under one message's 8 MiB: texts are cut with a
 * marker, media that do not fit are replaced by a note, and diff blocks that do not fit are left out of
 * `structuredContent`.
 */
export function toCallToolResult(
  result: ToolReturnValue,
  options: ToCallToolResultOptions = {},
): CallToolResult {
  // One message holds the whole result, budgeted in the order the model reads it: the message first (it says what
  // happened), then the output.
  const budget = new MessageBudget();
  const content = contentBlocks(toModelContent(result).parts, budget);
  const mapped: CallToolResult = { content, isError: result.isError };
  if (options.structuredContent === true) {
    const structured: StructuredToolResult = { brief: result.brief, display: result.display };
    if (result.extras !== undefined) structured.extras = result.extras;
    // The diff blocks are for a user interface: when they do not fit, the brief blocks go alone.
    if (!budget.take(jsonBytes(structured))) {
      structured.display = result.display.filter((block) => block.type === 'brief');
      budget.take(jsonBytes(structured));
    }
    mapped.structuredContent = structured;
  }
  return mapped;
}

function contentBlocks(parts: readonly ModelPart[], budget: MessageBudget): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  // The file a media part came from is named by the wrapper tag just before it (`<image path="...">`).
  let taggedPath: string | undefined;
  for (const part of parts) {
    if (part.type === 'text') {
      taggedPath = wrapperTagPath(part.text);
      blocks.push({ type: 'text', text: budget.text(part.text) });
      continue;
    }
    blocks.push(mediaBlock(part, taggedPath, blocks.length, budget));
    taggedPath = undefined;
  }
  return blocks;
}

function mediaKind(mediaType: string | undefined): 'image' | 'video' {
  return mediaType?.startsWith('video/') ? 'video' : 'image';
}

function mediaBlock(
  part: Exclude<ModelPart, { type: 'text' }>,
  taggedPath: string | undefined,
  index: number,
  budget: MessageBudget,
): ContentBlock {
  const kind = mediaKind(part.mediaType);
  if (part.type === 'media-url') {
    // An uploaded video (or a remote image): the client fetches it, if it wants to.
    return { type: 'resource_link', uri: part.url, name: resourceName(part.url, kind) };
  }
  if (!budget.take(part.data.length)) return { type: 'text', text: budget.mediaNote(kind, part.data) };
  if (kind === 'image') return { type: 'image', data: part.data, mimeType: part.mediaType };
  // MCP has no video content; an embedded resource carries the bytes with their MIME type.
  const uri = taggedPath ? fileUri(taggedPath) : `urn:kimi-tools:media:${index}`;
  return { type: 'resource', resource: { uri, mimeType: part.mediaType, blob: part.data } };
}

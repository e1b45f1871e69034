import type { ContentPart, DisplayBlock, ToolReturnValue } from '@kimi-tools/core';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { parseDataUrl } from './data-url.js';
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

/** Text sent when a result has neither output nor message, so no client receives an empty content list. */
export const EMPTY_RESULT_TEXT = '(no output)';

/**
 * Maps a tool result to an MCP `CallToolResult`: the output (text, or each content part in order) then the
 * message as text content; `image_url` data URLs as image content; videos as embedded resources (data URLs) or
 * resource links (other URLs); `isError` as is; on request, brief, display and extras as {@link StructuredToolResult}.
 * The whole stays under one message's 8 MiB: texts are cut with a marker, media that do not fit are replaced by a
 * note, and diff blocks that do not fit are left out of `structuredContent`.
 */
export function toCallToolResult(
  result: ToolReturnValue,
  options: ToCallToolResultOptions = {},
): CallToolResult {
  // One message holds the whole result. The message is budgeted first (it says what happened), then the output.
  const budget = new MessageBudget();
  const message = result.message ? budget.text(result.message) : '';
  const content: ContentBlock[] = outputContent(result.output, budget);
  if (message) content.push({ type: 'text', text: message });
  if (content.length === 0) content.push({ type: 'text', text: EMPTY_RESULT_TEXT });
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

function outputContent(output: string | ContentPart[], budget: MessageBudget): ContentBlock[] {
  if (typeof output === 'string') return output ? [{ type: 'text', text: budget.text(output) }] : [];
  const blocks: ContentBlock[] = [];
  // The file a media part came from is named by the wrapper tag just before it (`<image path="...">`).
  let taggedPath: string | undefined;
  for (const part of output) {
    if (part.type === 'text') {
      taggedPath = wrapperTagPath(part.text);
      if (part.text) blocks.push({ type: 'text', text: budget.text(part.text) });
      continue;
    }
    blocks.push(mediaBlock(part, taggedPath, blocks.length, budget));
    taggedPath = undefined;
  }
  return blocks;
}

function mediaBlock(
  part: Extract<ContentPart, { type: 'image_url' | 'video_url' }>,
  taggedPath: string | undefined,
  index: number,
  budget: MessageBudget,
): ContentBlock {
  const kind = part.type === 'image_url' ? 'image' : 'video';
  const data = parseDataUrl(part.url);
  if (data && !budget.take(data.base64.length)) {
    return { type: 'text', text: budget.mediaNote(kind, data.base64.length) };
  }
  if (!data) {
    // An uploaded video (or a remote image): the client fetches it, if it wants to.
    return { type: 'resource_link', uri: part.url, name: resourceName(part.url, kind) };
  }
  if (kind === 'image') return { type: 'image', data: data.base64, mimeType: data.mimeType };
  // MCP has no video content; an embedded resource carries the bytes with their MIME type.
  const uri = taggedPath ? fileUri(taggedPath) : `urn:kimi-tools:media:${index}`;
  return { type: 'resource', resource: { uri, mimeType: data.mimeType, blob: data.base64 } };
}

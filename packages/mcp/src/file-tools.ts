import type { ToolRuntime } from '@kimi-tools/core';
import { isReadMediaFileAvailable, ReadMediaFile } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ServableTool } from './servable-tool.js';

/**
 * The six file tools on one runtime: ReadFile, WriteFile, StrReplaceFile, Glob, Grep, and ReadMediaFile when the
 * runtime has `image_in` or `video_in` (without either, the five others).
 */
export function createFileTools(runtime: ToolRuntime): ServableTool[] {
  const tools: ServableTool[] = [
    new ReadFile(runtime),
    new WriteFile(runtime),
    new StrReplaceFile(runtime),
    new Glob(runtime),
    new Grep(runtime),
  ];
  if (isReadMediaFileAvailable(runtime)) tools.push(new ReadMediaFile(runtime));
  return tools;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** MCP hints for the file tools: which only read, which change files, and that none reaches beyond the machine. */
export const FILE_TOOL_ANNOTATIONS: Readonly<Record<string, ToolAnnotations>> = {
  ReadFile: READ_ONLY,
  Glob: READ_ONLY,
  Grep: READ_ONLY,
  ReadMediaFile: READ_ONLY,
  WriteFile: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  StrReplaceFile: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

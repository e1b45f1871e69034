import type { ToolRuntime } from '@kimi-tools/core';
import type { ServableTool } from '@kimi-tools/mcp';
import { isReadMediaFileAvailable, ReadMediaFile, type ReadMediaFileOptions } from '@kimi-tools/media';
import { NotebookEdit, type NotebookEditOptions } from '@kimi-tools/notebook';
import { ApplyPatch, type ApplyPatchOptions } from '@kimi-tools/patch';
import { ReadFile, type ReadFileOptions } from '@kimi-tools/read';
import { StrReplaceFile, type StrReplaceFileOptions } from '@kimi-tools/replace';
import { Glob, Grep, type GlobOptions, type GrepOptions } from '@kimi-tools/search';
import { WriteFile, type WriteFileOptions } from '@kimi-tools/write';

/** Each file tool's own options, keyed by tool name. */
export interface FileToolOptions {
  ReadFile?: ReadFileOptions;
  WriteFile?: WriteFileOptions;
  StrReplaceFile?: StrReplaceFileOptions;
  NotebookEdit?: NotebookEditOptions;
  ApplyPatch?: ApplyPatchOptions;
  Glob?: GlobOptions;
  Grep?: GrepOptions;
  ReadMediaFile?: ReadMediaFileOptions;
}

/**
 * The eight file tools on one runtime: ReadFile, WriteFile, StrReplaceFile, NotebookEdit, ApplyPatch, Glob, Grep, and
 * ReadMediaFile when its options give it `image_in` or `video_in` (without either, the seven others). Throws on an invalid tool option.
 */
export function createFileTools(runtime: ToolRuntime, options: FileToolOptions = {}): ServableTool[] {
  const tools: ServableTool[] = [
    new ReadFile(runtime, options.ReadFile),
    new WriteFile(runtime, options.WriteFile),
    new StrReplaceFile(runtime, options.StrReplaceFile),
    new NotebookEdit(runtime, options.NotebookEdit),
    new ApplyPatch(runtime, options.ApplyPatch),
    new Glob(runtime, options.Glob),
    new Grep(runtime, options.Grep),
  ];
  const media = options.ReadMediaFile ?? {};
  if (isReadMediaFileAvailable(media)) tools.push(new ReadMediaFile(runtime, media));
  return tools;
}

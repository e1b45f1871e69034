import type { CallOptions, ToolReturnValue, ToolRuntime } from '@kimi-tools/core';
import { ReadMediaFile, isReadMediaFileAvailable } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';

/** What the playground needs of a tool: its name and its never-throwing `call`. */
export interface PlaygroundTool {
  readonly name: string;
  call(args: unknown, options?: CallOptions): Promise<ToolReturnValue>;
}

/**
 * Every file tool on one shared runtime, by name, as an agent would offer them to its model. ReadMediaFile is
 * offered only when the runtime's model takes images or videos in.
 */
export function createFileTools(runtime: ToolRuntime): Map<string, PlaygroundTool> {
  const tools: PlaygroundTool[] = [
    new ReadFile(runtime),
    new WriteFile(runtime),
    new StrReplaceFile(runtime),
    new Glob(runtime),
    new Grep(runtime),
  ];
  if (isReadMediaFileAvailable(runtime)) tools.push(new ReadMediaFile(runtime));
  return new Map(tools.map((tool) => [tool.name, tool]));
}

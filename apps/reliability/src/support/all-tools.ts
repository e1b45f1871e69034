import type { ToolReturnValue, ToolRuntime } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';

/** Every tool by name, as the suites call them. */
export type Tools = Record<string, { call(args: unknown): Promise<ToolReturnValue> }>;

/** The six tools on one runtime (which must have `image_in` or `video_in`, for ReadMediaFile). */
export function allTools(runtime: ToolRuntime): Tools {
  return {
    ReadFile: new ReadFile(runtime),
    WriteFile: new WriteFile(runtime),
    StrReplaceFile: new StrReplaceFile(runtime),
    Glob: new Glob(runtime),
    Grep: new Grep(runtime),
    ReadMediaFile: new ReadMediaFile(runtime),
  };
}

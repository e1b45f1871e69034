import type { ToolReturnValue, ToolRuntime } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';

/** Grep's timeout in the suites: generous, so a slow machine never turns a search into a timeout. */
const GREP_TIMEOUT_MS = 10_000;

/** Every tool by name, as the suites call them. */
export type Tools = Record<string, { call(args: unknown): Promise<ToolReturnValue> }>;

/** The six tools on one runtime, ReadMediaFile for a model taking images and videos, Grep with a long timeout. */
export function allTools(runtime: ToolRuntime): Tools {
  return {
    ReadFile: new ReadFile(runtime),
    WriteFile: new WriteFile(runtime),
    StrReplaceFile: new StrReplaceFile(runtime),
    Glob: new Glob(runtime),
    Grep: new Grep(runtime, { timeoutMs: GREP_TIMEOUT_MS }),
    ReadMediaFile: new ReadMediaFile(runtime, { capabilities: ['image_in', 'video_in'] }),
  };
}

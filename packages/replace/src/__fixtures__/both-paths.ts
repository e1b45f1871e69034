// One edit run both ways, read in windows and read whole, for the tests that prove the two agree.
import type { ToolReturnValue, ToolRuntime } from '@kimi-tools/core';
import { readBytes, testFileSystem, type TempWorkspace } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import type { EditMatch } from '../match/types.js';
import { StrReplaceFile } from '../str-replace-file.js';
import type { WindowTuning } from '../window/window-tuning.js';

/** What a call returned and left on disk. */
export async function outcomeOf(tool: StrReplaceFile, input: string, file: string, edit: object) {
  const { isError, message, brief, output, extras } = await tool.call({ path: input, edit });
  return { isError, message, brief, output, extras, bytes: await readBytes(await testFileSystem(), file) };
}

/**
 * The same edit of the same bytes read in windows and read whole (two files, `s-` and `m-`): both outcomes, with the
 * whole one's file name put in the windowed one's place wherever it shows. `snippets: false` leaves the snippets
 * (`output`) out: next to a line longer than a window reaches, the windowed snippet shows less of it.
 */
export async function bothPaths(
  workspace: TempWorkspace,
  runtime: ToolRuntime,
  name: string,
  bytes: Uint8Array | string,
  edit: object,
  { snippets = true }: { snippets?: boolean } = {},
) {
  const streamedFile = await workspace.write(`s-${name}`, bytes, { readBy: runtime });
  const memoryFile = await workspace.write(`m-${name}`, bytes, { readBy: runtime });
  const streamedTool = new StrReplaceFile(runtime, { streamAboveBytes: 1 });
  const streamed = await outcomeOf(streamedTool, `s-${name}`, streamedFile, edit);
  const { bytes: memoryBytes, ...memoryResult } = await outcomeOf(
    new StrReplaceFile(runtime),
    `m-${name}`,
    memoryFile,
    edit,
  );
  const renamed = JSON.parse(
    JSON.stringify(memoryResult).replaceAll(`m-${name}`, `s-${name}`),
  ) as typeof memoryResult;
  const memory = { ...renamed, bytes: memoryBytes };
  if (snippets) return { streamed, memory };
  return { streamed: { ...streamed, output: undefined }, memory: { ...memory, output: undefined } };
}

/** The tool reading every file in windows of `tuning`'s chunks and sizes. */
export function streamedCall(
  runtime: ToolRuntime,
  input: string,
  edit: object,
  mode: EditMatch,
  tuning: WindowTuning,
) {
  return new StrReplaceFile(runtime, { match: mode, streamAboveBytes: 1 }, tuning).call({
    path: input,
    edit,
  });
}

/**
 * Asserts the windowed call answered and wrote what the whole-file one did: error or not, brief, message (with its own
 * file name) and every byte. The snippet of a small window shows less, and the display is a diff of the windows,
 * which may line up repeated blank lines differently from a diff of the whole file: both are left out.
 */
export async function expectSameOutcome(
  streamed: { result: ToolReturnValue; file: string; name: string },
  memory: { result: ToolReturnValue; file: string; name: string },
): Promise<void> {
  const outcome = async ({ result, file }: { result: ToolReturnValue; file: string }, message: string) => ({
    isError: result.isError,
    brief: result.brief,
    message,
    bytes: (await readBytes(await testFileSystem(), file)).toString('hex'),
  });
  expect(await outcome(streamed, streamed.result.message)).toEqual(
    await outcome(memory, memory.result.message.replaceAll(memory.name, streamed.name)),
  );
}

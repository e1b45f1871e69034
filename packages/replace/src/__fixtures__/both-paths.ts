// One edit run both ways, streamed and in memory, for the tests that prove the two paths agree.
import type { ToolRuntime } from '@kimi-tools/core';
import { readBytes, testFileSystem, type TempWorkspace } from '@kimi-tools/test-kit';
import { StrReplaceFile } from '../str-replace-file.js';

/** What a call returned and left on disk. */
export async function outcomeOf(tool: StrReplaceFile, input: string, file: string, edit: object) {
  const { isError, message, brief, output, extras } = await tool.call({ path: input, edit });
  return { isError, message, brief, output, extras, bytes: await readBytes(await testFileSystem(), file) };
}

/**
 * The same edit of the same bytes by the streamed and the in-memory path (two files, `s-` and `m-`): both outcomes,
 * with the in-memory one's file name put in the streamed one's place wherever it shows. `snippets: false` leaves the
 * snippets (`output`) out: next to a line longer than a window reaches, the streamed path shows less of it.
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

// The tool with a file streamed in small chunks and windows, for the tests that put their edges inside a few bytes.
import type { ToolReturnValue, ToolRuntime } from '@kimi-tools/core';
import { readBytes, testFileSystem } from '@kimi-tools/test-kit';
import { expect } from 'vitest';
import type { EditMatch } from '../match/types.js';
import { editStreamed, FALL_BACK } from '../stream/edit-streamed.js';
import type { StreamTuning } from '../stream/stream-tuning.js';
import { StrReplaceFile } from '../str-replace-file.js';

/**
 * The tool with every file streamed in `tuning`'s chunks and windows: editStreamed as the tool calls it, and the
 * in-memory path where it falls back.
 */
export async function streamedCall(
  runtime: ToolRuntime,
  input: string,
  edit: object,
  mode: EditMatch,
  tuning: StreamTuning,
) {
  const resolved = await runtime.paths.resolveFile(input, 'edit');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const handle = await runtime.fs.open(resolved.path.real, 'read');
  const parsed = { old: '', new: '', replace_all: false, ...edit };
  try {
    const result = await editStreamed(
      {
        runtime,
        sender: 'StrReplaceFile',
        input,
        target: resolved.path,
        handle,
        edits: [parsed],
        mode,
        canFallBack: true,
        applyIfUnrelated: true,
        tuning,
      },
      {},
    );
    if (result !== FALL_BACK) return result;
  } finally {
    await handle.close();
  }
  return new StrReplaceFile(runtime, { match: mode }).call({ path: input, edit });
}

/** One call's answer and the file it edited (absolute path), and the name the call gave that file. */
interface EditedFile {
  result: ToolReturnValue;
  file: string;
  name: string;
}

/**
 * Asserts the streamed call answered and wrote what the in-memory one did: error or not, brief, message (with its own
 * file name) and every byte. The snippet of a small window shows less, and the display is a diff of the windows,
 * which may line up repeated blank lines differently from a diff of the whole file: both are left out.
 */
export async function expectSameOutcome(streamed: EditedFile, memory: EditedFile): Promise<void> {
  const outcome = async ({ result, file }: EditedFile, message: string) => ({
    isError: result.isError,
    brief: result.brief,
    message,
    bytes: (await readBytes(await testFileSystem(), file)).toString('hex'),
  });
  expect(await outcome(streamed, streamed.result.message)).toEqual(
    await outcome(memory, memory.result.message.replaceAll(memory.name, streamed.name)),
  );
}

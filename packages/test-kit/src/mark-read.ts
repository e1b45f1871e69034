import type { ToolRuntime } from '@kimi-tools/core';
import { readRegularFile, recordSeenText, stampOf } from '@kimi-tools/core/toolkit';

/**
 * Records in `runtime` a complete read of `file` as it is now, as ReadFile does after reading a whole file, so a
 * test of a write tool needs no ReadFile call. The file is looked at through the runtime's file system; a symlink is
 * recorded under its target, as the tools see it.
 */
export async function markRead(runtime: ToolRuntime, file: string): Promise<void> {
  const real = await runtime.fs.realpath(file);
  const stamp = await stampOf(runtime.fs, real);
  if (typeof stamp === 'string') throw new Error(`markRead: ${file} is ${stamp}`);
  runtime.fileState.recordRead(real, stamp, true);
  const read = await readRegularFile(runtime.fs, real);
  if (typeof read === 'string') throw new Error(`markRead: ${file} is ${read}`);
  recordSeenText(runtime, real, read.bytes);
}

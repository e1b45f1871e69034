import { promises as fs } from 'node:fs';
import type { ToolRuntime } from '@kimi-tools/core';
import { recordSeenText, stampOf } from '@kimi-tools/core/toolkit';

/**
 * Records in `runtime` a complete read of `file` as it is now, as ReadFile does after reading a whole file, so a
 * test of a write tool needs no ReadFile call. A symlink is recorded under its target, as the tools see it.
 */
export async function markRead(runtime: ToolRuntime, file: string): Promise<void> {
  const real = await fs.realpath(file);
  const stamp = await stampOf(real);
  if (typeof stamp === 'string') throw new Error(`markRead: ${file} is ${stamp}`);
  runtime.fileState.recordRead(real, stamp, true);
  recordSeenText(runtime, real, await fs.readFile(real));
}

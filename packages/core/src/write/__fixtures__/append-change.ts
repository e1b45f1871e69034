import { promises as fs } from 'node:fs';
import type { ToolRuntime } from '../../runtime/runtime.js';
import { applyFileChange, type ApplyOutcome } from '../apply-file-change.js';

/** Appends `addition` to `file` through applyFileChange on `runtime`, as a writing tool would (no read state). */
export async function appendThroughChange(
  runtime: ToolRuntime,
  file: string,
  addition: string,
): Promise<ApplyOutcome> {
  const resolved = await runtime.paths.resolveFile(file, 'edit');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const oldBytes = await fs.readFile(resolved.path.real);
  const oldText = oldBytes.toString('utf8');
  return applyFileChange(runtime, {
    sender: 'test',
    verb: 'Edit',
    path: resolved.path,
    oldBytes,
    newBytes: Buffer.from(oldText + addition, 'utf8'),
    oldText,
    newText: oldText + addition,
    checkReadState: false,
  });
}

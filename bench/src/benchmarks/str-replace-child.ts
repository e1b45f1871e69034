// Child side of the StrReplaceFile benchmark: one unique edit through the tool, end to end, and the figures.
// Usage: str-replace-child.ts SOURCE_FILE OLD NEW WORK_DIR
// Untimed set-up: WORK_DIR/target.txt gets SOURCE_FILE's bytes and the session records a read of it (as ReadFile
// would). Timed: `StrReplaceFile.call` with a yolo approval (path checks, read, decode, read-state check, matching,
// diff blocks, staleness re-check, atomic write with fsync, new read state).
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { snapshotOf } from '@kimi-tools/core/toolkit';
import { StrReplaceFile } from '@kimi-tools/replace';
import { measureInChild } from '../harness/child-report.js';

const [sourceFile, oldText, newText, workDir] = process.argv.slice(2);
if (sourceFile === undefined || oldText === undefined || newText === undefined || workDir === undefined) {
  throw new Error('usage: str-replace-child.ts SOURCE_FILE OLD NEW WORK_DIR');
}

await mkdir(workDir, { recursive: true });
const target = path.join(workDir, 'target.txt');
await copyFile(sourceFile, target);
const sourceSize = (await stat(sourceFile)).size;
const runtime = createRuntime({ workDir, approval: yoloApproval() });
runtime.fileState.recordRead(target, snapshotOf(await readFile(target), await stat(target)), true);
const tool = new StrReplaceFile(runtime);

await measureInChild(async () => {
  const result = await tool.call({ path: 'target.txt', edit: { old: oldText, new: newText } });
  if (result.isError) throw new Error(`StrReplaceFile failed: ${result.message}`);
  const written = (await stat(target)).size;
  const expected = sourceSize - Buffer.byteLength(oldText) + Buffer.byteLength(newText);
  if (written !== expected) throw new Error(`wrote ${written} bytes, expected ${expected}`);
  const diffs = result.display.filter((block) => block.type === 'diff');
  return { summary: diffs.some((block) => block.isSummary) ? 1 : 0 };
});

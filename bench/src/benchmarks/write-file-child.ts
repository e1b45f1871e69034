// Child side of the WriteFile benchmark: overwrite a file through the tool, end to end, and report the figures.
// Usage: write-file-child.ts OLD_FILE NEW_FILE WORK_DIR
// Untimed set-up: WORK_DIR/target.txt gets OLD_FILE's bytes and the session records a read of it (as ReadFile
// would). Timed: reading NEW_FILE (the content the model sends) and `WriteFile.call` with a yolo approval (path
// checks, read-state check, decoding, diff blocks, staleness re-check, atomic write with fsync, new read state).
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { snapshotOf } from '@kimi-tools/core/toolkit';
import { WriteFile } from '@kimi-tools/write';
import { measureInChild } from '../harness/child-report.js';

const [oldFile, newFile, workDir] = process.argv.slice(2);
if (oldFile === undefined || newFile === undefined || workDir === undefined) {
  throw new Error('usage: write-file-child.ts OLD_FILE NEW_FILE WORK_DIR');
}

await mkdir(workDir, { recursive: true });
const target = path.join(workDir, 'target.txt');
await copyFile(oldFile, target);
const runtime = createRuntime({ workDir, approval: yoloApproval() });
runtime.fileState.recordRead(target, snapshotOf(await readFile(target), await stat(target)), true);
const tool = new WriteFile(runtime);

await measureInChild(async () => {
  const started = performance.now();
  const content = await readFile(newFile, 'utf8');
  const called = performance.now();
  const result = await tool.call({ path: 'target.txt', content });
  const toolMs = performance.now() - called;
  if (result.isError) throw new Error(`WriteFile failed: ${result.message}`);
  const written = (await stat(target)).size;
  if (written !== Buffer.byteLength(content))
    throw new Error(`wrote ${written} bytes, expected the content's size`);
  const diffs = result.display.filter((block) => block.type === 'diff');
  return {
    readMs: called - started,
    toolMs,
    blocks: diffs.length,
    summary: diffs.some((block) => block.isSummary) ? 1 : 0,
  };
});

// ApplyPatch as a user runs it: a fresh process builds the tool (no read-before-write, as `git apply`) and applies the
// patch in PATCH_FILE to the files of WORK_DIR (parse, every chunk placed, every file's bytes computed, diff blocks,
// yolo approval, locks and checks, temp files with fsync, renames), then prints the result.
// Usage: apply-patch-child.ts WORK_DIR PATCH_FILE MAX_CHUNKS
import { readFile } from 'node:fs/promises';
import { callOnce } from '../harness/one-call.js';
import { buildApplyPatch } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

const startMs = sinceStartMs();
const [workDir, patchFile, maxChunks] = process.argv.slice(2);
if (workDir === undefined || patchFile === undefined || maxChunks === undefined) {
  throw new Error('usage: apply-patch-child.ts WORK_DIR PATCH_FILE MAX_CHUNKS');
}
const patch = await readFile(patchFile, 'utf8');
await callOnce(startMs, () => buildApplyPatch(workDir, Number(maxChunks)), { patch });

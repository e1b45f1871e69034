// NotebookEdit as a user runs it: a fresh process, in a session that has read the notebook (its stamp is given in a file, as
// ReadFile would have left it), replaces one cell through the tool (checks, read, decode, parse, plan, diff blocks,
// yolo approval, staleness re-check, atomic write with fsync, new read state) and prints the result.
// Usage: notebook-edit-child.ts REAL_FILE CELL_ID NEW_SOURCE STAMP_FILE
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStamp } from '@kimi-tools/core/toolkit';
import { callOnce } from '../harness/one-call.js';
import { buildNotebookEdit } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file, cellId, newSource, stampFile] = process.argv.slice(2);
if (file === undefined || cellId === undefined || newSource === undefined || stampFile === undefined) {
  throw new Error('usage: notebook-edit-child.ts REAL_FILE CELL_ID NEW_SOURCE STAMP_FILE');
}
const snapshot = JSON.parse(await readFile(stampFile, 'utf8')) as FileStamp;

await callOnce(startMs, () => buildNotebookEdit(path.dirname(file), [{ realPath: file, snapshot }]), {
  notebook_path: file,
  cell_id: cellId,
  new_source: newSource,
});

// StrReplaceFile with a list of edits, as a user runs it: a fresh process, in a session that has read the file (its
// stamp is given in a file), makes one call with every edit of EDITS_JSON (`[{ old, new }, ...]`) and prints the result.
// Usage: str-replace-many-child.ts REAL_FILE EDITS_JSON STAMP_FILE
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStamp } from '@kimi-tools/core/toolkit';
import { callOnce } from '../harness/one-call.js';
import { buildStrReplaceFile } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file, editsFile, stampFile] = process.argv.slice(2);
if (file === undefined || editsFile === undefined || stampFile === undefined) {
  throw new Error('usage: str-replace-many-child.ts REAL_FILE EDITS_JSON STAMP_FILE');
}
const snapshot = JSON.parse(await readFile(stampFile, 'utf8')) as FileStamp;
const edits = JSON.parse(await readFile(editsFile, 'utf8')) as { old: string; new: string }[];

const result = await callOnce(
  startMs,
  () => buildStrReplaceFile(path.dirname(file), [{ realPath: file, snapshot }]),
  { path: file, edit: edits },
  () => ({ edits: edits.length }),
);
if (!result.message.includes(`Applied ${edits.length} edit(s)`))
  throw new Error(`unexpected result: ${result.message}`);

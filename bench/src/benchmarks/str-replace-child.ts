// StrReplaceFile as a user runs it: a fresh process, in a session that has read the file (its stamp is given in a file, as
// ReadFile would have left it), makes one edit through the tool (checks, read, decode, unique match, diff blocks,
// yolo approval, staleness re-check, atomic write with fsync, new read state) and prints the message.
// Usage: str-replace-child.ts REAL_FILE OLD NEW STAMP_FILE
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStamp } from '@kimi-tools/core/toolkit';
import { callOnce } from '../harness/one-call.js';
import { buildStrReplaceFile } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file, oldText, newText, stampFile] = process.argv.slice(2);
if (file === undefined || oldText === undefined || newText === undefined || stampFile === undefined) {
  throw new Error('usage: str-replace-child.ts REAL_FILE OLD NEW STAMP_FILE');
}
const snapshot = JSON.parse(await readFile(stampFile, 'utf8')) as FileStamp;

await callOnce(startMs, () => buildStrReplaceFile(path.dirname(file), [{ realPath: file, snapshot }]), {
  path: file,
  edit: { old: oldText, new: newText },
});
const expected = snapshot.size - Buffer.byteLength(oldText) + Buffer.byteLength(newText);
const written = (await stat(file)).size;
if (written !== expected) throw new Error(`wrote ${written} bytes, expected ${expected}`);

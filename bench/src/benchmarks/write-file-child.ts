// WriteFile as a user runs it: a fresh process, in a session that has read the target (its stamp is given in a file, as
// ReadFile would have left it), overwrites it with NEW_FILE's content through the tool (read-state check, decode,
// diff blocks, yolo approval, staleness re-check, atomic write with fsync, new read state).
// Usage: write-file-child.ts REAL_TARGET NEW_FILE STAMP_FILE
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStamp } from '@kimi-tools/core/toolkit';
import { callOnce } from '../harness/one-call.js';
import { buildWriteFile } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [target, newFile, stampFile] = process.argv.slice(2);
if (target === undefined || newFile === undefined || stampFile === undefined) {
  throw new Error('usage: write-file-child.ts REAL_TARGET NEW_FILE STAMP_FILE');
}
const snapshot = JSON.parse(await readFile(stampFile, 'utf8')) as FileStamp;

// The content the model sends, as one flat string, the way a host has it from parsing the call's JSON arguments (read
// with an encoding, Node joins its 512 KiB chunks into a rope, which the call would then pay to flatten).
const content = (await readFile(newFile)).toString('utf8');
await callOnce(
  startMs,
  () => buildWriteFile(path.dirname(target), [{ realPath: target, snapshot }]),
  { path: target, content },
  (result) => {
    const diffs = result.display.filter((block) => block.type === 'diff');
    return { blocks: diffs.length, summary: diffs.some((block) => block.isSummary) ? 1 : 0 };
  },
);
if ((await stat(target)).size !== Buffer.byteLength(content))
  throw new Error('wrote the wrong number of bytes');

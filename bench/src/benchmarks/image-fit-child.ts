// ReadMediaFile as a user runs it: a fresh process reads an 8000x8000 PNG, which the tool fits (first use of sharp,
// decode, scale to 2000 px, JPEG, base64 data URL) and prints the result's message.
// Usage: image-fit-child.ts FILE
import path from 'node:path';
import { callOnce } from '../harness/one-call.js';
import { buildReadMediaFile } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: image-fit-child.ts FILE');

await callOnce(
  startMs,
  () => buildReadMediaFile(path.dirname(file)),
  { path: file },
  (result) => {
    const sent = (result.extras as { sent?: { size: number } } | undefined)?.sent;
    return { sentBytes: sent?.size ?? Number.NaN };
  },
);

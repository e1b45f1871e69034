// Cold start as a user meets it: a fresh process imports one tool (ReadFile: core, zod and all), reads a small file
// once, prints it and exits. Usage: cold-start-child.ts FILE
import path from 'node:path';
import { callOnce } from '../harness/one-call.js';
import { buildReadFile } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cold-start-child.ts FILE');

await callOnce(startMs, () => buildReadFile(path.dirname(file)), { path: file });

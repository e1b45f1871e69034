// Part of the cold start: a fresh process imports @kimi-tools/core alone and creates the runtime a tool would get,
// then reads a small file with fs.readFile and prints it (no tool package, no zod). Usage: cold-start-core-child.ts FILE
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';
import { runtimeFor } from '../tools.js';

const startMs = sinceStartMs();
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cold-start-core-child.ts FILE');

await runtimeFor(path.dirname(file));
const builtMs = sinceStartMs();
process.stdout.write(await readFile(file, 'utf8'));
reportDetails({ startMs, importMs: builtMs - startMs });

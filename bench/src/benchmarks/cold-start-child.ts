// Cold start as a user meets it: a fresh process imports one tool (ReadFile: core, zod and all), reads a small file
// once, prints it and exits. Usage: cold-start-child.ts FILE
import path from 'node:path';
import { reportDetails } from '../harness/child-report.js';
import { buildReadFile } from '../tools.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = performance.now();
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cold-start-child.ts FILE');

const tool = await buildReadFile(path.dirname(file));
const builtMs = performance.now();
const result = await tool.call({ path: file });
const calledMs = performance.now();
if (result.isError) throw new Error(`ReadFile failed: ${result.message}`);
process.stdout.write(`${typeof result.output === 'string' ? result.output : ''}\n${result.message}\n`);
reportDetails({ startMs, importMs: builtMs - startMs, callMs: calledMs - builtMs });

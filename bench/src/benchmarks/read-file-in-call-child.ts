// ReadFile in one warm process: the repeated read of a page (served by the runtime's line index) against the first
// read of the same page in a fresh runtime, taking turns. Each first read leaves the runtime the next repeated read
// uses. Usage: read-file-in-call-child.ts FILE LINE PAGE_LINES PAIRS
import path from 'node:path';
import { runPairs } from '../harness/child-report.js';
import { buildReadFile } from '../tools.js';
import { checkPage } from './read-file-page.js';

const [file, line, pageLines, pairs] = process.argv
  .slice(2)
  .map((argument, index) => (index === 0 ? argument : Number(argument)));
if (typeof file !== 'string' || typeof line !== 'number' || typeof pageLines !== 'number') {
  throw new Error('usage: read-file-in-call-child.ts FILE LINE PAGE_LINES PAIRS');
}

const args = { path: file, line_offset: line, n_lines: pageLines };
let tool = await buildReadFile(path.dirname(file));
checkPage(await tool.call(args), line);
await runPairs(
  Number(pairs),
  async () => checkPage(await tool.call(args), line),
  async () => {
    tool = await buildReadFile(path.dirname(file));
    checkPage(await tool.call(args), line);
  },
);

// ReadFile as a user runs it: a fresh process builds the tool, reads one page deep in a big file (the first read: no
// line index yet), prints it and exits. Usage: read-file-child.ts FILE LINE PAGE_LINES
import path from 'node:path';
import { callOnce } from '../harness/one-call.js';
import { buildReadFile } from '../tools.js';
import { checkPage } from './read-file-page.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file, line, pageLines] = process.argv
  .slice(2)
  .map((argument, index) => (index === 0 ? argument : Number(argument)));
if (typeof file !== 'string' || typeof line !== 'number' || typeof pageLines !== 'number') {
  throw new Error('usage: read-file-child.ts FILE LINE PAGE_LINES');
}

await callOnce(
  startMs,
  () => buildReadFile(path.dirname(file)),
  { path: file, line_offset: line, n_lines: pageLines },
  (result) => ({ totalLines: checkPage(result, line).totalLines }),
);

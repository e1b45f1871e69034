// Our side of the diff benchmark, a fresh process: read two files, build their diff blocks, report the figures.
// Usage: diff-child.ts OLD_FILE NEW_FILE BUDGET_MS
import { readFile } from 'node:fs/promises';
import { buildDiffBlocks, type DiffTiming } from '@kimi-tools/core/toolkit';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';

const [oldFile, newFile, budgetMs] = process.argv.slice(2);
if (oldFile === undefined || newFile === undefined || budgetMs === undefined) {
  throw new Error('usage: diff-child.ts OLD_FILE NEW_FILE BUDGET_MS');
}

const readStarted = sinceStartMs();
const [oldBytes, newBytes] = await Promise.all([readFile(oldFile), readFile(newFile)]);
const [oldText, newText] = [oldBytes.toString('utf8'), newBytes.toString('utf8')];
const cpuBefore = process.cpuUsage();
const buildStarted = sinceStartMs();
const timing: DiffTiming = { readMs: 0, searchMs: 0, searchTimedOut: false };
const blocks = buildDiffBlocks(oldFile, oldText, newText, { budgetMs: Number(budgetMs), timing });
const buildMs = sinceStartMs() - buildStarted;
const cpu = process.cpuUsage(cpuBefore);
reportDetails({
  fileReadMs: buildStarted - readStarted,
  buildMs,
  buildCpuMs: (cpu.user + cpu.system) / 1000,
  textReadMs: timing.readMs,
  searchMs: timing.searchMs,
  searchTimedOut: timing.searchTimedOut ? 1 : 0,
  blocks: blocks.length,
  summary: blocks.some((block) => block.isSummary) ? 1 : 0,
  shownLines: blocks.reduce(
    (total, block) =>
      total + (block.isSummary ? 0 : block.oldText.split('\n').length + block.newText.split('\n').length),
    0,
  ),
});

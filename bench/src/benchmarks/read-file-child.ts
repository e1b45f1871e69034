// Child side of the ReadFile benchmark: one page deep in a big file, through the tool, and report the figures.
// Usage: read-file-child.ts FILE LINE first|repeat
// `first`: a fresh runtime, so the tool scans the file (and builds its line index) — timed.
// `repeat`: the same read is done once untimed, then again timed: the second read uses the runtime's line index.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { MAX_LINES, ReadFile } from '@kimi-tools/read';
import { measureInChild } from '../harness/child-report.js';

const [file, lineText, mode] = process.argv.slice(2);
const line = Number(lineText);
if (file === undefined || !Number.isInteger(line) || (mode !== 'first' && mode !== 'repeat')) {
  throw new Error('usage: read-file-child.ts FILE LINE first|repeat');
}

const tool = new ReadFile(createRuntime({ workDir: path.dirname(file), approval: yoloApproval() }));
const args = { path: file, line_offset: line, n_lines: MAX_LINES };

async function readPage(): Promise<Record<string, number>> {
  const result = await tool.call(args);
  if (result.isError) throw new Error(`ReadFile failed: ${result.message}`);
  const output = result.output as string;
  // The page must start at the line asked for (numbers wider than 6 digits are not padded).
  if (!output.startsWith(`${line}\t`))
    throw new Error(`page starts with ${JSON.stringify(output.slice(0, 40))}`);
  const total = /Total lines in file: (\d+)\./.exec(result.message);
  return { lines: output.split('\n').length - 1, totalLines: Number(total?.[1] ?? -1) };
}

/**
 * Peak RSS of this process image (VmHWM), in bytes. Unlike getrusage's ru_maxrss, it starts afresh at exec, so it
 * never includes the memory of the (possibly big) parent that spawned us.
 */
function peakRssOfThisImage(): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

if (mode === 'repeat') await readPage();
await measureInChild(async () => ({ ...(await readPage()), peakRssBytes: peakRssOfThisImage() }));

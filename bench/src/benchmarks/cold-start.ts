// Cold start (issue 15, goal ≤ 1.3×): what a user pays to use one tool in a new process — Node, importing
// @kimi-tools/read (core, zod and all) and one ReadFile of a small file — vs a new bare Node process reading it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomText } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';

const CHILD = fileURLToPath(new URL('./cold-start-child.ts', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./cold-start-reference.ts', import.meta.url));

async function prepare({ dataDir }: BenchContext): Promise<Row[]> {
  const file = await ensureDataFile(path.join(dataDir, 'small.ts'), () => randomText(7, 4 * 1024, 60));
  return [
    {
      kind: 'whole-process',
      label: 'cold start: import ReadFile, read a 4 KB file',
      referenceLabel: 'node + fs.readFile',
      goal: { time: 1.3 },
      ours: { kind: 'node', script: CHILD, args: [file] },
      reference: { kind: 'node', script: REFERENCE, args: [file] },
    },
  ];
}

async function notes(results: RowResult[]): Promise<string[]> {
  return results.map((result) => {
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    return (
      `Ours, median split: Node start-up and this script ${formatMs(ours('startMs'))}, importing ` +
      `@kimi-tools/core and @kimi-tools/read and building the tool ${formatMs(ours('importMs'))}, the first ` +
      `ReadFile.call ${formatMs(ours('callMs'))}; the rest is printing and exit.`
    );
  });
}

const coldStart: Benchmark = {
  title: 'Cold start: importing a tool and reading a small file',
  description:
    'A fresh process imports @kimi-tools/read, creates a runtime and reads a small file once, vs a fresh bare Node ' +
    'process (an ES module too) reading the same file.',
  prepare,
  notes,
};

export default coldStart;

// Cold start (DESIGN §8): what an agent pays the first time it uses a tool in a new process — importing
// @kimi-tools/read (core, zod and all) and one ReadFile of a small file — next to a whole new bare `node` process
// reading the same file, the floor any Node tool stands on.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { median } from '../harness/stats.js';
import { randomText } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, BenchCase, Benchmark, CaseResult } from '../harness/types.js';

const CHILD = fileURLToPath(new URL('./cold-start-child.ts', import.meta.url));

async function prepare({ dataDir }: BenchContext): Promise<BenchCase[]> {
  const file = await ensureDataFile(path.join(dataDir, 'small.ts'), () => randomText(7, 4 * 1024, 60));
  return [
    {
      label: 'import @kimi-tools/read + ReadFile of a 4 KB file',
      ours: { script: CHILD, args: [file] },
      reference: {
        label: 'new node process reading it',
        argv: [process.execPath, '-e', 'require("fs").readFileSync(process.argv[1], "utf8")', file],
      },
    },
  ];
}

async function notes(results: CaseResult[]): Promise<string[]> {
  return results.map((result) => {
    const importMs = median(result.ours.map((run) => run.details['importMs'] ?? Number.NaN));
    const readMs = median(result.ours.map((run) => run.details['readMs'] ?? Number.NaN));
    return `Ours, median: import ${formatMs(importMs)}, first ReadFile ${formatMs(readMs)} (process start-up excluded; the reference includes its own).`;
  });
}

const coldStart: Benchmark = {
  title: 'Cold start: importing a tool and reading a small file',
  description:
    'A fresh process imports @kimi-tools/read, creates a runtime and reads a small file once, vs a new bare node process reading the same file.',
  prepare,
  notes,
};

export default coldStart;

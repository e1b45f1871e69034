// WriteFile's worst case for the diff (bench/README.md): two entirely different 5 MB texts, diff blocks vs `git diff`, both
// as whole processes; the notes check the search budget (docs/diff-blocks.md) on every run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DIFF_BUDGET_MS, DIFF_MAX_LINES } from '@kimi-tools/core/toolkit';
import { ensureDataFile } from '../harness/bench-data.js';
import { median } from '../harness/stats.js';
import { randomLines, randomText, seededRandom } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';

const FIVE_MB = 5 * 1024 * 1024;
const CHILD = fileURLToPath(new URL('./diff-child.ts', import.meta.url));
// Long lines so that 5 MB fits in the line limit and the diff really has to be computed.
const LONG_LINE_LENGTH = Math.floor(FIVE_MB / DIFF_MAX_LINES) - 20;

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

function diffCase(label: string, oldFile: string, newFile: string): Row {
  return {
    kind: 'whole-process',
    label: `diff blocks, ${label}`,
    referenceLabel: 'git diff --no-index',
    goal: { text: `search ≤ ${DEFAULT_DIFF_BUDGET_MS} ms (notes)` },
    ours: { kind: 'node', script: CHILD, args: [oldFile, newFile, String(DEFAULT_DIFF_BUDGET_MS)] },
    reference: {
      kind: 'command',
      argv: ['git', 'diff', '--no-index', '--no-color', '--no-ext-diff', oldFile, newFile],
      okExitCodes: [0, 1],
    },
  };
}

async function prepare({ dataDir }: BenchContext): Promise<Row[]> {
  const file = (name: string) => path.join(dataDir, name);
  const longOld = randomLines(3, DIFF_MAX_LINES, LONG_LINE_LENGTH);
  const joinLines = (lines: readonly string[]) => `${lines.join('\n')}\n`;
  return [
    diffCase(
      '5 MB, different, ~80-char lines (~60k lines)',
      await ensureDataFile(file('short-lines-a.txt'), () => randomText(1, FIVE_MB, 80)),
      await ensureDataFile(file('short-lines-b.txt'), () => randomText(2, FIVE_MB, 80)),
    ),
    diffCase(
      '5 MB, different, 10,000 long lines',
      await ensureDataFile(file('long-lines-a.txt'), () => joinLines(longOld)),
      await ensureDataFile(file('long-lines-b.txt'), () =>
        joinLines(randomLines(4, DIFF_MAX_LINES, LONG_LINE_LENGTH)),
      ),
    ),
    diffCase(
      '5 MB, 10,000 long lines shuffled',
      await ensureDataFile(file('long-lines-a.txt'), () => joinLines(longOld)),
      await ensureDataFile(file('long-lines-shuffled.txt'), () => joinLines(shuffled(longOld, 5))),
    ),
  ];
}

function describeOutcome(details: Record<string, number>): string {
  if (details.summary === 1)
    return details.searchTimedOut === 1 ? 'summary (search out of budget)' : 'summary (line limit)';
  return `${details.blocks} block(s), ${details.shownLines} lines shown`;
}

/**
 * docs/diff-blocks.md: building the blocks never takes longer than the budget plus reading the texts. `buildDiffBlocks` reports
 * (through `options.timing`) how long its search took and how long everything else took; each run is checked.
 */
async function notes(results: RowResult[]): Promise<string[]> {
  const budget = DEFAULT_DIFF_BUDGET_MS;
  const lines = [
    `Budget check (docs/diff-blocks.md), every run of ours: whole build ≤ ${budget} ms + reading the texts (counting, splitting, ` +
      'numbering lines, making blocks), i.e. the search alone ≤ the budget:',
  ];
  let worstOver = -Infinity;
  let cpuShareOfWorst = 1;
  for (const result of results) {
    const maxOf = (key: string) => Math.max(...result.ours.map((run) => run.details[key]!));
    const medianOf = (key: string) => median(result.ours.map((run) => run.details[key]!));
    for (const run of result.ours) {
      if (run.details.searchMs! - budget > worstOver) {
        worstOver = run.details.searchMs! - budget;
        cpuShareOfWorst = run.details.buildCpuMs! / run.details.buildMs!;
      }
    }
    lines.push(
      `- ${result.row.label}: build median ${formatMs(medianOf('buildMs'))} = reading the texts ` +
        `${formatMs(medianOf('textReadMs'))} + search ${formatMs(medianOf('searchMs'))}; slowest search ` +
        `${formatMs(maxOf('searchMs'))}; CPU time of the build ${formatMs(medianOf('buildCpuMs'))}; ` +
        `reading the files ${formatMs(medianOf('fileReadMs'))}; ` +
        `result: ${describeOutcome(result.ours[0]!.details)}`,
    );
  }
  if (worstOver <= 0) {
    lines.push(`Ours never exceeded the budget: no search took more than ${budget} ms.`);
  } else if (worstOver < 1) {
    lines.push(
      `Ours stayed within the budget to the millisecond: the slowest search was ${formatMs(worstOver)} over ` +
        '(the search looks at the clock every 1024 line comparisons; a minor GC can land on the deadline).',
    );
  } else {
    lines.push(
      `A search exceeded the ${budget} ms budget by up to ${formatMs(worstOver)}, in wall-clock time; in that run ` +
        `the process had the CPU ${Math.round(cpuShareOfWorst * 100)}% of the time (CPU time / wall time of the ` +
        'build): a busy machine can deschedule it past its deadline (see the load average above).',
    );
  }
  return lines;
}

const diffBenchmark: Benchmark = {
  title: 'Diff blocks of two entirely different 5 MB texts',
  description:
    'A fresh process reads both files and builds their diff blocks (`buildDiffBlocks`, 200 ms budget) vs ' +
    '`git diff --no-index` on the same files, output drained. Lines over 10,000 give a summary at once; 10,000 different lines give one full block; the ' +
    'same 10,000 lines shuffled make the search run out of budget.',
  prepare,
  notes,
};

export default diffBenchmark;

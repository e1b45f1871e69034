import type { ChildRunner } from './child-process.js';
import { medianOfDefined, median } from './stats.js';
import { formatMegabytes, formatMs, formatRatio, renderTable } from './table.js';
import type { BenchCase, BenchContext, Benchmark, CaseResult } from './types.js';

/**
 * Runs every case of a benchmark: one untimed warm-up of each side (so both find the files in the page cache), then
 * `runs` timed runs, ours and the reference taking turns so that a slow moment of the machine hits both alike.
 */
async function runCase(
  benchCase: BenchCase,
  runner: ChildRunner,
  context: BenchContext,
): Promise<CaseResult> {
  await runner.runOurs(benchCase.ours);
  await runner.runReference(benchCase.reference);
  const result: CaseResult = { benchCase, ours: [], reference: [] };
  for (let run = 1; run <= context.runs; run++) {
    context.log(`  ${benchCase.label}: run ${run}/${context.runs}`);
    result.ours.push(await runner.runOurs(benchCase.ours));
    result.reference.push(await runner.runReference(benchCase.reference));
  }
  return result;
}

/** The table of a benchmark: medians of wall time and peak RSS, ours next to the reference, with ratios. */
export function resultTable(results: readonly CaseResult[]): string {
  const referenceLabels = [...new Set(results.map((result) => result.benchCase.reference.label))];
  const reference = referenceLabels.length === 1 ? referenceLabels[0]! : 'reference';
  const headers = [
    'case',
    'ours',
    reference,
    'time ratio',
    'ours peak RSS',
    `${reference} peak RSS`,
    'RSS ratio',
  ];
  const rows = results.map((result) => {
    const oursMs = median(result.ours.map((run) => run.wallMs));
    const referenceMs = median(result.reference.map((run) => run.wallMs));
    const oursRss = medianOfDefined(result.ours.map((run) => run.peakRssBytes));
    const referenceRss = medianOfDefined(result.reference.map((run) => run.peakRssBytes));
    return [
      referenceLabels.length === 1
        ? result.benchCase.label
        : `${result.benchCase.label} (vs ${result.benchCase.reference.label})`,
      formatMs(oursMs),
      formatMs(referenceMs),
      formatRatio(oursMs, referenceMs),
      formatMegabytes(oursRss),
      formatMegabytes(referenceRss),
      formatRatio(oursRss, referenceRss),
    ];
  });
  return renderTable(headers, rows);
}

/** Prepares, runs and prints one benchmark. */
export async function runBenchmark(
  name: string,
  benchmark: Benchmark,
  runner: ChildRunner,
  context: BenchContext,
): Promise<void> {
  context.log(`[${name}] preparing data in ${context.dataDir}`);
  const cases = await benchmark.prepare(context);
  const results: CaseResult[] = [];
  for (const benchCase of cases) results.push(await runCase(benchCase, runner, context));
  const notes = benchmark.notes ? await benchmark.notes(results, context) : [];

  const lines = [
    '',
    `## ${benchmark.title} (\`pnpm bench ${name}\`)`,
    benchmark.description,
    `Median of ${context.runs} runs; ratio = ours / reference (below 1 means ours is faster or smaller).`,
    '',
    resultTable(results),
  ];
  if (notes.length > 0) lines.push('', ...notes);
  console.log(lines.join('\n'));
}

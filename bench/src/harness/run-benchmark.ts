import type { ProcessRunner } from './process-runner.js';
import { median, spreadOf } from './stats.js';
import { formatMegabytes, formatMs, formatRatio, formatSpreadMs, renderTable } from './table.js';
import type { BenchContext, Benchmark, InCallRow, RowResult, Sample, WholeProcessRow } from './types.js';

/**
 * A whole-process row: one untimed run of each side (so both find their files in the page cache), then `runs` runs
 * of each, taking turns — ours first on even runs, the reference first on odd ones — so that a busy moment of the
 * machine, or a drift, hits both alike.
 */
async function runWholeProcessRow(
  row: WholeProcessRow,
  runner: ProcessRunner,
  context: BenchContext,
): Promise<RowResult> {
  const once = async (side: 'ours' | 'reference'): Promise<Sample> => {
    await row.beforeEachRun?.();
    return runner.run(row[side]);
  };
  await once('ours');
  await once('reference');
  const result: RowResult = { row, ours: [], reference: [] };
  for (let run = 0; run < context.runs; run++) {
    context.log(`  ${row.label}: run ${run + 1}/${context.runs}`);
    const order = run % 2 === 0 ? (['ours', 'reference'] as const) : (['reference', 'ours'] as const);
    for (const side of order) result[side].push(await once(side));
  }
  return result;
}

/** An in-call row: one process times the pairs itself; its peak RSS is shared by both series. */
async function runInCallRow(
  row: InCallRow,
  runner: ProcessRunner,
  context: BenchContext,
): Promise<RowResult> {
  context.log(`  ${row.label}: ${context.runs} pairs in one process`);
  const sample = await runner.runScript(row.child);
  if (sample.pairs === undefined) throw new Error(`${row.child.script} reported no pairs`);
  const asSamples = (series: number[], peakRssBytes: number | undefined): Sample[] =>
    series.map((wallMs) => ({ wallMs, peakRssBytes, cpuMs: undefined, details: sample.details }));
  return {
    row,
    ours: asSamples(sample.pairs.ours, sample.peakRssBytes),
    reference: asSamples(sample.pairs.reference, undefined),
  };
}

/** Median of one figure over the samples of one side. */
export function medianOf(samples: readonly Sample[], pick: (sample: Sample) => number | undefined): number {
  return median(samples.map(pick).filter((value): value is number => value !== undefined));
}

function verdict(goal: number | undefined, ours: number | undefined, reference: number | undefined): string {
  if (goal === undefined) return '—';
  if (ours === undefined || reference === undefined) return `≤ ${goal}× (n/a)`;
  return `≤ ${goal}× ${ours <= goal * reference ? 'met' : 'MISSED'}`;
}

const TABLE_HEADERS = [
  'workload',
  'measured',
  'ours',
  'reference',
  'ratio',
  'goal',
  'ours peak RSS',
  'reference peak RSS',
  'RSS ratio',
  'RSS goal',
  'ours CPU',
  'reference CPU',
];

function rowCells(result: RowResult): string[] {
  const { row } = result;
  const oursTime = spreadOf(result.ours.map((sample) => sample.wallMs));
  const referenceTime = spreadOf(result.reference.map((sample) => sample.wallMs));
  const oursRss = spreadOf(result.ours.map((sample) => sample.peakRssBytes))?.median;
  const referenceRss = spreadOf(result.reference.map((sample) => sample.peakRssBytes))?.median;
  const inCall = row.kind === 'in-call';
  const cpu = (samples: Sample[]) => formatMs(spreadOf(samples.map((sample) => sample.cpuMs))?.median);
  return [
    row.label,
    inCall ? 'in-call' : 'whole process',
    formatSpreadMs(oursTime),
    `${row.referenceLabel}: ${formatSpreadMs(referenceTime)}`,
    formatRatio(oursTime?.median, referenceTime?.median),
    row.goal.text ?? verdict(row.goal.time, oursTime?.median, referenceTime?.median),
    inCall ? `${formatMegabytes(oursRss)} (one process)` : formatMegabytes(oursRss),
    inCall ? 'same process' : formatMegabytes(referenceRss),
    inCall ? 'n/a' : formatRatio(oursRss, referenceRss),
    verdict(row.goal.memory, oursRss, referenceRss),
    cpu(result.ours),
    cpu(result.reference),
  ];
}

/** The table of some rows: medians with smallest and largest sample, ratios and goals. */
export function resultTable(results: readonly RowResult[]): string {
  return renderTable(TABLE_HEADERS, results.map(rowCells));
}

/** Prepares, runs and prints one benchmark; returns its results for the summary. */
export async function runBenchmark(
  name: string,
  benchmark: Benchmark,
  runner: ProcessRunner,
  context: BenchContext,
): Promise<RowResult[]> {
  context.log(`[${name}] preparing data in ${context.dataDir}`);
  const rows = await benchmark.prepare(context);
  const results: RowResult[] = [];
  for (const row of rows) {
    results.push(
      row.kind === 'in-call'
        ? await runInCallRow(row, runner, context)
        : await runWholeProcessRow(row, runner, context),
    );
  }
  const notes = benchmark.notes ? await benchmark.notes(results, context) : [];
  const lines = ['', `## ${benchmark.title} (\`pnpm bench ${name}\`)`, '', benchmark.description, ''];
  lines.push(resultTable(results));
  if (notes.length > 0) lines.push('', ...notes);
  console.log(lines.join('\n'));
  return results;
}

// @kimi-tools/diagnostics (docs/diagnostics.md): what checking a change costs an edit. Parser mode on a 1 MB
// TypeScript file (issue 19: overhead ≤ 30 ms at p95) and the round trip through typescript-language-server on a
// small file, both in one warm process against the same edit without diagnostics.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';

const CHILD = fileURLToPath(new URL('./diagnostics-in-call-child.ts', import.meta.url));
const ONE_MB = 1024 * 1024;
const PARSER_GOAL_MS = 30;
/**
 * Edits timed for the parser row: a 95th percentile needs enough of them. Of 20, it is the second largest, so one
 * major garbage collection of the 1 MiB syntax tree decides it; of 60, it is the fourth largest.
 */
const PARSER_PAIRS = 60;
const OLD_LINE = 'export const benchmarkMarker = 1;';
const NEW_LINE = 'export const benchmarkMarker = 2;';

/** Valid TypeScript of about `bytes` bytes: many small typed functions and classes, the marker line in the middle. */
function typescriptSource(bytes: number): string {
  const chunks: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const chunk =
      `export interface Item${index} {\n  name: string;\n  count: number;\n  tags?: readonly string[];\n}\n\n` +
      `export function total${index}(items: readonly Item${index}[]): number {\n` +
      `  return items.reduce((sum, item) => sum + item.count * ${index % 7}, 0);\n}\n\n` +
      `export class Shelf${index}<T extends Item${index}> {\n  private readonly items: T[] = [];\n` +
      `  add(item: T): this {\n    this.items.push(item);\n    return this;\n  }\n}\n\n`;
    chunks.push(chunk);
    size += chunk.length;
    if (chunks.length === 2_000) chunks.push(`${OLD_LINE}\n\n`);
  }
  return chunks.join('');
}

/** Two copies of `source` in their own directories (ours, reference), reset before the row. */
async function copies(dataDir: string, name: string, source: string): Promise<[string, string]> {
  const files = ['ours', 'reference'].map((side) => path.join(dataDir, side, name)) as [string, string];
  for (const file of files) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.copyFile(source, file);
  }
  return files;
}

async function prepare({ dataDir, runs }: BenchContext): Promise<Row[]> {
  const big = await ensureDataFile(path.join(dataDir, 'source-1mib-v1.ts'), () => typescriptSource(ONE_MB));
  const small = await ensureDataFile(
    path.join(dataDir, 'source-small-v1.ts'),
    () => `${OLD_LINE}\nexport function twice(value: number): number {\n  return value * 2;\n}\n`,
  );
  const [bigOurs, bigReference] = await copies(dataDir, 'big.ts', big);
  const [smallOurs, smallReference] = await copies(dataDir, 'small.ts', small);
  return [
    {
      kind: 'in-call',
      label: 'StrReplaceFile, one-line edit of a 1 MiB .ts file, parsers',
      referenceLabel: 'same edit, no diagnostics',
      goal: { text: `overhead p95 ≤ ${PARSER_GOAL_MS} ms (notes)` },
      child: {
        kind: 'node',
        script: CHILD,
        args: [bigOurs, bigReference, OLD_LINE, NEW_LINE, '-', String(Math.max(runs, PARSER_PAIRS))],
      },
    },
    {
      kind: 'in-call',
      label: 'StrReplaceFile, one-line edit of a small .ts file, typescript-language-server',
      referenceLabel: 'same edit, no diagnostics',
      goal: { text: 'round trip within the 2 s budget (notes)' },
      child: {
        kind: 'node',
        script: CHILD,
        args: [smallOurs, smallReference, OLD_LINE, NEW_LINE, 'typescript', String(runs)],
      },
    },
  ];
}

/** The `fraction` quantile of `values` (nearest rank). */
function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function notes(results: RowResult[]): Promise<string[]> {
  const lines: string[] = [];
  for (const [index, result] of results.entries()) {
    const overheads = result.ours.map(
      (sample, pair) => sample.wallMs - (result.reference[pair]?.wallMs ?? 0),
    );
    const p50 = quantile(overheads, 0.5);
    const p95 = quantile(overheads, 0.95);
    const details = result.ours[0]?.details ?? {};
    const reports = `${details.clean ?? 0} clean, ${details.other ?? 0} other`;
    if (index === 0) {
      lines.push(
        `- Parsers, 1 MiB .ts: overhead per edit over ${overheads.length} edits p50 ${formatMs(p50)}, p95 ` +
          `${formatMs(p95)} (goal ≤ ` +
          `${PARSER_GOAL_MS} ms: ${p95 <= PARSER_GOAL_MS ? 'met' : 'NOT met'}); reports: ${reports}.`,
      );
    } else {
      lines.push(
        `- typescript-language-server round trip per edit: p50 ${formatMs(p50)}, p95 ${formatMs(p95)} over the ` +
          `edit without diagnostics (the server started in the untimed first pair); reports: ${reports} ` +
          '(other: timed out past the 2 s budget).',
      );
    }
  }
  return lines;
}

const diagnosticsBenchmark: Benchmark = {
  title: 'Diagnostics: what checking a change adds to an edit',
  description:
    'In one warm process, StrReplaceFile on a runtime with `@kimi-tools/diagnostics` vs the same edit on a runtime ' +
    'without, taking turns: parsers on a 1 MiB TypeScript file, and typescript-language-server on a small one.',
  prepare,
  notes,
};

export default diagnosticsBenchmark;

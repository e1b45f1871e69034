// StrReplaceFile beyond V8's string limit (issue 15): one unique edit in the middle of a 768 MiB file, which the
// in-memory path could never hold as one string, found and written by streaming; whole processes, peak RSS against
// the 256 MB goal. The reference is a minimal streaming Node script doing the same job.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureStreamedFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomText } from '../harness/seeded-text.js';
import { formatMegabytes } from '../harness/table.js';
import type { BenchContext, Row, RowResult } from '../harness/types.js';
import { freshCopyOf } from './fresh-copy.js';

const HALF_SIZE = 384 * 1024 * 1024;
/** Written in pieces of this size: each piece is one string, well under the limit. */
const PIECE_SIZE = 32 * 1024 * 1024;
/** The whole process must stay under this peak RSS, whatever the file's size. */
const RSS_GOAL_BYTES = 256 * 1000 * 1000;
const CHILD = fileURLToPath(new URL('./str-replace-child.ts', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./str-replace-streaming-reference.ts', import.meta.url));
const OLD = 'const hugeBenchmarkMarker = "replace me exactly once";';
const NEW = 'const hugeBenchmarkMarker = "replaced by StrReplaceFile";';

async function* halves(): AsyncIterable<string> {
  for (const [seed, suffix] of [
    [61, `${OLD}\n`],
    [62, ''],
  ] as const) {
    for (let done = 0, piece = 0; done < HALF_SIZE; done += PIECE_SIZE, piece++) {
      yield randomText(seed * 1000 + piece, PIECE_SIZE, 80);
    }
    yield suffix;
  }
}

/** The row beyond the string limit (its data made once in the replace benchmark's data dir). */
export async function prepareHugeRow({ dataDir, log }: BenchContext): Promise<Row> {
  log('  generating the 768 MiB file (once)');
  const source = await ensureStreamedFile(path.join(dataDir, 'source-768mib-v1.txt'), halves);
  const { target, makeFresh, size, snapshotFile } = await freshCopyOf(source, dataDir, 'huge-target.txt');
  return {
    kind: 'whole-process',
    label: `StrReplaceFile, one edit in ${formatMegabytes(size).replace('MB', 'MiB')} (beyond the string limit)`,
    referenceLabel: 'node streaming read/replace/write',
    goal: { text: 'peak RSS < 256 MB' },
    ours: { kind: 'node', script: CHILD, args: [target, OLD, NEW, snapshotFile] },
    reference: { kind: 'node', script: REFERENCE, args: [target, OLD, NEW] },
    beforeEachRun: makeFresh,
  };
}

/** The notes of that row: how it is measured, and its peak RSS against the 256 MB goal. */
export function hugeRowNotes(result: RowResult): string[] {
  const peak = medianOf(result.ours, (sample) => sample.peakRssBytes);
  const worst = Math.max(...result.ours.map((sample) => sample.peakRssBytes ?? Number.POSITIVE_INFINITY));
  return [
    "Files over V8's string limit (about 512 MiB) are always streamed: the match is found by scanning the bytes " +
      'in 8 MiB chunks and the new file is written through a temp file and renamed, with the read-state check, lock ' +
      'and fsync of every write. The reference streams the same way without fsync, lock or checks.',
    `- Ours: peak RSS median ${formatMegabytes(peak)}, largest ${formatMegabytes(worst)}; goal < 256 MB: ` +
      `${worst < RSS_GOAL_BYTES ? 'met' : 'NOT met'}.`,
  ];
}

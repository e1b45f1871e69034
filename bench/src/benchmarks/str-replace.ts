// StrReplaceFile, one unique edit in the middle of a 106 MiB file (issue 15: within 1.2× of a minimal Node script in
// time and in peak memory), both as whole processes editing the same fresh copy of the file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomText } from '../harness/seeded-text.js';
import { formatMegabytes, formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';
import { freshCopyOf } from './fresh-copy.js';
import { hugeRowNotes, prepareHugeRow } from './str-replace-huge.js';
import { isManyEditsRow, manyEditsNotes, prepareManyEditsRow } from './str-replace-many.js';

const HALF_SIZE = 53 * 1024 * 1024;
const CHILD = fileURLToPath(new URL('./str-replace-child.ts', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./str-replace-reference.ts', import.meta.url));
const OLD = 'const benchmarkMarker = "replace me exactly once";';
const NEW = 'const benchmarkMarker = "replaced by StrReplaceFile";';

async function prepare(context: BenchContext): Promise<Row[]> {
  const { dataDir, log } = context;
  log('  generating the 106 MiB file (once)');
  const source = await ensureDataFile(
    path.join(dataDir, 'source-106mib-v1.txt'),
    () => `${randomText(51, HALF_SIZE, 80)}${OLD}\n${randomText(52, HALF_SIZE, 80)}`,
  );
  const { target, makeFresh, size, snapshotFile } = await freshCopyOf(source, dataDir, 'target.txt');
  return [
    {
      kind: 'whole-process',
      label: `StrReplaceFile, one edit in ${formatMegabytes(size).replace('MB', 'MiB')}`,
      referenceLabel: 'node read/replace/write',
      goal: { time: 1.2, memory: 1.2 },
      ours: { kind: 'node', script: CHILD, args: [target, OLD, NEW, snapshotFile] },
      reference: { kind: 'node', script: REFERENCE, args: [target, OLD, NEW] },
      beforeEachRun: makeFresh,
    },
    await prepareHugeRow(context),
    await prepareManyEditsRow(context),
  ];
}

async function notes(results: RowResult[]): Promise<string[]> {
  const lines = [
    'Both sides edit the same fresh copy of the file (made before every run, untimed). Ours runs in a session that ' +
      'has read the file (its stamp is handed to the process, as ReadFile would have left it; the file is over the ' +
      '64 MiB hashing limit, so the read-state check compares stamps); the call includes the atomic write with fsync, the reference writes in place without fsync.',
  ];
  for (const result of results) {
    if (result.row.label.includes('beyond the string limit')) {
      lines.push(...hugeRowNotes(result));
      continue;
    }
    if (isManyEditsRow(result)) {
      lines.push(...manyEditsNotes(result));
      continue;
    }
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    // The last argument names the file holding the copy's stamp (fresh-copy.ts).
    const stampFile = result.row.kind === 'whole-process' ? result.row.ours.args[3] : undefined;
    const size =
      stampFile === undefined ? Number.NaN : Number(JSON.parse(await readFile(stampFile, 'utf8')).size);
    const peak = medianOf(result.ours, (sample) => sample.peakRssBytes);
    const referencePeak = medianOf(result.reference, (sample) => sample.peakRssBytes);
    lines.push(
      `- Ours, median split: Node start-up ${formatMs(ours('startMs'))}, import + build ${formatMs(ours('importMs'))}, ` +
        `StrReplaceFile.call ${formatMs(ours('callMs'))}. Peak RSS ${(peak / size).toFixed(2)}× the file size ` +
        `(reference ${(referencePeak / size).toFixed(2)}×).`,
    );
  }
  return lines;
}

const strReplaceBenchmark: Benchmark = {
  title:
    'StrReplaceFile: one unique edit in the middle of a 106 MiB file, and of a 768 MiB one; 10,000 edits in one call',
  description:
    'A fresh process makes one exact, unique edit through `StrReplaceFile` vs a fresh process running a minimal ' +
    'Node script that reads the file, checks the match is unique, replaces it and writes the file; and 10,000 ' +
    'edits of a 12,000-line file in one call vs 1,000 of them.',
  prepare,
  notes,
};

export default strReplaceBenchmark;

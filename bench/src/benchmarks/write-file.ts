// WriteFile overwriting a 5 MB file with entirely different content (bench/README.md, issue 4: within 2×): the worst case
// for the diff shown for approval, a whole process through the tool, vs `git diff --no-index` plus a plain write.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIFF_MAX_LINES } from '@kimi-tools/core/toolkit';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomLines, randomText } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';
import { freshCopyOf } from './fresh-copy.js';

const FIVE_MB = 5 * 1024 * 1024;
const CHILD = fileURLToPath(new URL('./write-file-child.ts', import.meta.url));
const FLOOR = fileURLToPath(new URL('./write-file-floor.ts', import.meta.url));
const FLOOR_LABEL = 'Node floor: encode, temp file, write, fsync, rename, fsync dir';
// Long lines so that 5 MB stays within the diff's line limit and a real diff has to be computed.
const LONG_LINE_LENGTH = Math.floor(FIVE_MB / DIFF_MAX_LINES) - 20;
// The reference: show the diff the way git would (output discarded), then write the new content over the target.
const REFERENCE_SCRIPT =
  'git diff --no-index --no-color --no-ext-diff "$1" "$2" > /dev/null; cat "$2" > "$3"';

async function writeRow(
  label: string,
  dataDir: string,
  oldFile: string,
  newFile: string,
  slug: string,
): Promise<Row> {
  const { target, makeFresh, snapshotFile } = await freshCopyOf(oldFile, dataDir, `target-${slug}.txt`);
  return {
    kind: 'whole-process',
    label: `WriteFile, ${label}`,
    referenceLabel: 'git diff --no-index + write',
    goal: { time: 2 },
    ours: { kind: 'node', script: CHILD, args: [target, newFile, snapshotFile] },
    reference: { kind: 'command', argv: ['sh', '-c', REFERENCE_SCRIPT, 'sh', oldFile, newFile, target] },
    beforeEachRun: makeFresh,
  };
}

// The floor row: the same overwrite (its own fresh copy) by write-file-floor.ts, against the same reference.
async function floorRow(dataDir: string, oldFile: string, newFile: string): Promise<Row> {
  const { target, makeFresh } = await freshCopyOf(oldFile, dataDir, 'target-floor.txt');
  return {
    kind: 'whole-process',
    label: FLOOR_LABEL,
    referenceLabel: 'git diff --no-index + write',
    goal: { text: 'the floor under ≤ 2×' },
    ours: { kind: 'node', script: FLOOR, args: [target, newFile] },
    reference: { kind: 'command', argv: ['sh', '-c', REFERENCE_SCRIPT, 'sh', oldFile, newFile, target] },
    beforeEachRun: makeFresh,
  };
}

async function prepare({ dataDir }: BenchContext): Promise<Row[]> {
  const file = (name: string) => path.join(dataDir, name);
  const joinLines = (lines: readonly string[]) => `${lines.join('\n')}\n`;
  const shortOld = await ensureDataFile(file('short-lines-a.txt'), () => randomText(1, FIVE_MB, 80));
  const shortNew = await ensureDataFile(file('short-lines-b.txt'), () => randomText(2, FIVE_MB, 80));
  return [
    await writeRow('5 MB, different, ~80-char lines (~60k lines)', dataDir, shortOld, shortNew, 'short'),
    await floorRow(dataDir, shortOld, shortNew),
    await writeRow(
      '5 MB, different, 10,000 long lines',
      dataDir,
      await ensureDataFile(file('long-lines-a.txt'), () =>
        joinLines(randomLines(3, DIFF_MAX_LINES, LONG_LINE_LENGTH)),
      ),
      await ensureDataFile(file('long-lines-b.txt'), () =>
        joinLines(randomLines(4, DIFF_MAX_LINES, LONG_LINE_LENGTH)),
      ),
      'long',
    ),
  ];
}

/** The floor's line: its split, and what ours costs above it in the same run. */
function floorNote(first: RowResult | undefined, floor: RowResult): string {
  const wall = (samples: RowResult['ours']) => medianOf(samples, (sample) => sample.wallMs);
  const cpu = (samples: RowResult['ours']) => medianOf(samples, (sample) => sample.cpuMs);
  const split = (key: string) => medianOf(floor.ours, (sample) => sample.details[key]);
  const floorRatio = wall(floor.ours) / wall(floor.reference);
  const above =
    first === undefined
      ? ''
      : ` WriteFile on the same files is ${(wall(first.ours) / wall(floor.ours)).toFixed(2)}× the floor ` +
        `(CPU ${formatMs(cpu(first.ours))}).`;
  return (
    `- ${FLOOR_LABEL.replace('Node floor: ', 'The floor (')}): ${formatMs(wall(floor.ours))}, ` +
    `${floorRatio.toFixed(2)}× the reference in the same run (CPU ${formatMs(cpu(floor.ours))}); median split: ` +
    `Node start-up ${formatMs(split('startMs'))}, reading the content ${formatMs(split('readMs'))}, encode + ` +
    `durable write ${formatMs(split('writeMs'))}. No Node WriteFile with an fsync'd atomic write can go below it.` +
    above
  );
}

async function notes(results: RowResult[]): Promise<string[]> {
  const lines = [
    'Both sides overwrite the same fresh copy of the old file (made before every run, untimed). Ours runs in a ' +
      'session that has read it (its stamp is handed to the process) and reads the new content from a file. The ' +
      'floor row is a Node process with no imports that only does the durable write of the ~80-char-lines content ' +
      '(write-file-floor.ts), with no check.',
  ];
  const floor = results.find((result) => result.row.label === FLOOR_LABEL);
  for (const result of results) {
    if (result === floor) continue;
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    const first = result.ours[0]!.details;
    const shown = first['summary'] === 1 ? 'a summary block' : `${first['blocks']} diff block(s)`;
    const reference = medianOf(result.reference, (sample) => sample.wallMs);
    lines.push(
      `- ${result.row.label}: ours, median split: Node start-up ${formatMs(ours('startMs'))}, import + build + ` +
        `reading the content ${formatMs(ours('importMs'))}, WriteFile.call ${formatMs(ours('callMs'))}; showed ${shown}. ` +
        `The call alone (the first of its process) is ${(ours('callMs') / reference).toFixed(2)}× the reference ` +
        '(issue 33: the in-call row, ≤ 0.5× on the ~80-char lines).',
    );
  }
  if (floor !== undefined) lines.push(floorNote(results[0], floor));
  return lines;
}

const writeFileBenchmark: Benchmark = {
  title: 'WriteFile overwriting a 5 MB file with entirely different content',
  description:
    'A fresh process overwrites the file through `WriteFile` (diff blocks with the 200 ms budget, atomic write with ' +
    'fsync) vs `git diff --no-index` on the old and new files plus `cat new > target`. Over 10,000 lines the diff ' +
    'is a summary at once; 10,000 long different lines need a real diff. A floor row does only the durable write.',
  prepare,
  notes,
};

export default writeFileBenchmark;

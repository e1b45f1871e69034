// StrReplaceFile with many edits in one call (issue 33): 10,000 edits of a 12,000-line file against the same call
// with 1,000 edits, both whole processes editing a fresh copy. Edits found in one left-to-right pass cost one pass
// over the file plus the edits: ten times the edits may cost at most twelve times the time, and the 10,000 at most 2 s.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomLines } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Row, RowResult } from '../harness/types.js';
import { freshCopyOf } from './fresh-copy.js';

const LINE_COUNT = 12_000;
const LINE_LENGTH = 40;
/** The goal of the 10,000-edit call, whole process (issue 33). */
const WHOLE_GOAL_MS = 2000;
const CHILD = fileURLToPath(new URL('./str-replace-many-child.ts', import.meta.url));
const LABEL = 'StrReplaceFile, 10,000 edits in one call on a 12,000-line file';

/** One edit per chosen line, top to bottom: the line as `old`, its trailing number renamed as `new`. */
function editsOf(lines: readonly string[], chosen: (index: number) => boolean): string {
  const edits = lines
    .filter((_line, index) => chosen(index))
    .map((line) => ({ old: line, new: line.replace(/(\d+)$/, 'edited_$1') }));
  return JSON.stringify(edits);
}

/** The many-edits row (its data made once in the replace benchmark's data dir). */
export async function prepareManyEditsRow({ dataDir }: BenchContext): Promise<Row> {
  const lines = randomLines(71, LINE_COUNT, LINE_LENGTH);
  if (new Set(lines).size !== lines.length) throw new Error('the generated lines are not unique');
  const file = (name: string) => path.join(dataDir, name);
  const source = await ensureDataFile(file('many-edits-12000-lines-v1.txt'), () => `${lines.join('\n')}\n`);
  // 10,000 of the 12,000 lines (five of every six), and 1,000 (one of every twelve).
  const tenThousand = await ensureDataFile(file('many-edits-10000-v1.json'), () =>
    editsOf(lines, (index) => index % 6 !== 5),
  );
  const oneThousand = await ensureDataFile(file('many-edits-1000-v1.json'), () =>
    editsOf(lines, (index) => index % 12 === 0),
  );
  const { target, makeFresh, snapshotFile } = await freshCopyOf(source, dataDir, 'many-edits-target.txt');
  return {
    kind: 'whole-process',
    label: LABEL,
    referenceLabel: 'the same with 1,000 edits',
    goal: { time: 12, text: `10,000 edits ≤ ${formatMs(WHOLE_GOAL_MS)} (notes)` },
    ours: { kind: 'node', script: CHILD, args: [target, tenThousand, snapshotFile] },
    reference: { kind: 'node', script: CHILD, args: [target, oneThousand, snapshotFile] },
    beforeEachRun: makeFresh,
  };
}

/** Whether `result` is the many-edits row. */
export function isManyEditsRow(result: RowResult): boolean {
  return result.row.label === LABEL;
}

/** The notes of that row: the split of both sides and the 2 s goal. */
export function manyEditsNotes(result: RowResult): string[] {
  const split = (samples: RowResult['ours'], key: string) =>
    medianOf(samples, (sample) => sample.details[key]);
  const wall = medianOf(result.ours, (sample) => sample.wallMs);
  return [
    'Both sides edit the same fresh copy of a 12,000-line file (made before every run, untimed) in a session that ' +
      'has read it: one call with a list of edits, each a whole line given as `old`, in file order.',
    `- 10,000 edits: StrReplaceFile.call ${formatMs(split(result.ours, 'callMs'))} (median), whole process ` +
      `${formatMs(wall)}; goal ≤ ${formatMs(WHOLE_GOAL_MS)}: ${wall <= WHOLE_GOAL_MS ? 'met' : 'NOT met'}. ` +
      `1,000 edits: StrReplaceFile.call ${formatMs(split(result.reference, 'callMs'))}.`,
  ];
}

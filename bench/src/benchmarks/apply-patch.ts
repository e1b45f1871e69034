// ApplyPatch (issue 31): a 20-file patch (one chunk each, 100 KB files) vs `git apply` of the same unified diff, both
// whole processes on the same fresh copies; and a 5,000-chunk patch on one 10 MB file vs 500 chunks on it (the goal
// is linear time: at most 12× for ten times the chunks).
import { copyFile, mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomLines } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';

const CHILD = fileURLToPath(new URL('./apply-patch-child.ts', import.meta.url));
const FLOOR = fileURLToPath(new URL('./apply-patch-floor.ts', import.meta.url));
const FILES = 20;
const FILE_BYTES = 100 * 1024;
const BIG_FILE_BYTES = 10 * 1024 * 1024;
const LINE_LENGTH = 78;

/** A unified diff changing line `at` (0-based) of `lines`, with three lines of context, as `git diff` prints it. */
function hunk(lines: readonly string[], at: number, replacement: string): string[] {
  const from = Math.max(0, at - 3);
  const to = Math.min(lines.length, at + 4);
  const body = lines
    .slice(from, to)
    .flatMap((line, index) => (from + index === at ? [`-${line}`, `+${replacement}`] : [` ${line}`]));
  const count = to - from;
  return [`@@ -${from + 1},${count} +${from + 1},${count} @@`, ...body];
}

function fileDiff(name: string, hunks: string[][]): string {
  return [`diff --git a/${name} b/${name}`, `--- a/${name}`, `+++ b/${name}`, ...hunks.flat()].join('\n');
}

/** Sources kept in `dir/sources` and a work dir made afresh from them before every run (untimed). */
async function freshTree(dataDir: string, slug: string, sources: Record<string, string>) {
  const workDir = path.join(await realpath(dataDir), `apply-patch-${slug}`);
  const makeFresh = async () => {
    await mkdir(workDir, { recursive: true });
    for (const [name, source] of Object.entries(sources)) await copyFile(source, path.join(workDir, name));
  };
  await makeFresh();
  return { workDir, makeFresh };
}

async function prepare({ dataDir, log }: BenchContext): Promise<Row[]> {
  log('  generating the patch data (once)');
  const sources: Record<string, string> = {};
  const hunks: string[] = [];
  for (let index = 0; index < FILES; index += 1) {
    const name = `file-${index}.txt`;
    const lines = randomLines(100 + index, Math.floor(FILE_BYTES / (LINE_LENGTH + 1)), LINE_LENGTH);
    sources[name] = await ensureDataFile(
      path.join(dataDir, `apply-patch-${name}`),
      () => `${lines.join('\n')}\n`,
    );
    hunks.push(fileDiff(name, [hunk(lines, Math.floor(lines.length / 2), `changed line of ${name}`)]));
  }
  const twentyFiles = path.join(dataDir, 'apply-patch-20-files.diff');
  await writeFile(twentyFiles, `${hunks.join('\n')}\n`);
  const small = await freshTree(dataDir, 'twenty', sources);
  const floor = await freshTree(dataDir, 'twenty-floor', sources);

  const bigLines = randomLines(7, Math.floor(BIG_FILE_BYTES / (LINE_LENGTH + 1)), LINE_LENGTH);
  const big = await ensureDataFile(
    path.join(dataDir, 'apply-patch-10mb.txt'),
    () => `${bigLines.join('\n')}\n`,
  );
  const chunked = async (count: number) => {
    const step = Math.floor(bigLines.length / count);
    const chunks = Array.from({ length: count }, (_, index) =>
      hunk(bigLines, index * step + 3, `chunk ${index}`),
    );
    const file = path.join(dataDir, `apply-patch-${count}-chunks.diff`);
    await writeFile(file, `${fileDiff('big.txt', chunks)}\n`);
    return file;
  };
  const [many, few] = [await chunked(5000), await chunked(500)];
  const large = await freshTree(dataDir, 'big', { 'big.txt': big });
  const bigReference = await freshTree(dataDir, 'big-reference', { 'big.txt': big });
  return [
    {
      kind: 'whole-process',
      label: `ApplyPatch, ${FILES} files of 100 KB, one chunk each`,
      referenceLabel: 'git apply, same diff',
      goal: { time: 1.5 },
      ours: { kind: 'node', script: CHILD, args: [small.workDir, twentyFiles, '5000'] },
      reference: { kind: 'command', argv: ['git', 'apply', twentyFiles], cwd: small.workDir },
      beforeEachRun: small.makeFresh,
    },
    {
      kind: 'whole-process',
      label: 'Node floor: read, change, temp files with fsync, renames',
      referenceLabel: 'git apply, same diff',
      goal: { text: 'the floor under ≤ 1.5×' },
      ours: { kind: 'node', script: FLOOR, args: [floor.workDir, twentyFiles] },
      reference: { kind: 'command', argv: ['git', 'apply', twentyFiles], cwd: small.workDir },
      beforeEachRun: async () => {
        await small.makeFresh();
        await floor.makeFresh();
      },
    },
    {
      kind: 'whole-process',
      label: 'ApplyPatch, 5,000 chunks on one 10 MB file',
      referenceLabel: 'ApplyPatch, 500 chunks on it',
      goal: { time: 12 },
      ours: { kind: 'node', script: CHILD, args: [large.workDir, many, '5000'] },
      reference: { kind: 'node', script: CHILD, args: [bigReference.workDir, few, '5000'] },
      beforeEachRun: async () => {
        await large.makeFresh();
        await bigReference.makeFresh();
      },
    },
  ];
}

async function notes(results: RowResult[]): Promise<string[]> {
  const lines = [
    'Both sides of the first row apply the same unified diff to the same fresh copies (made before every run, ' +
      'untimed). Ours checks every file and computes every new content before writing, writes temp files with ' +
      'fsync and renames them; git apply writes each file in turn. The floor row is a Node process with no imports ' +
      'that makes the same change and the same durable writes with no check: what any Node ApplyPatch pays.',
  ];
  for (const result of results.filter((each) => each.row.label.startsWith('ApplyPatch'))) {
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    lines.push(
      `- ${result.row.label}, ours, median split: Node start-up ${formatMs(ours('startMs'))}, import + build ` +
        `${formatMs(ours('importMs'))}, ApplyPatch.call ${formatMs(ours('callMs'))}.`,
    );
  }
  return lines;
}

const applyPatchBenchmark: Benchmark = {
  title: 'ApplyPatch: twenty files vs git apply, and 5,000 chunks vs 500',
  description:
    'A fresh process applies a unified diff through `ApplyPatch` vs `git apply` of the same diff; and the same ' +
    'tool with ten times the chunks on one large file (linear time).',
  prepare,
  notes,
};

export default applyPatchBenchmark;

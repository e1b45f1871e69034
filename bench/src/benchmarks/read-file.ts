// ReadFile, a page deep in a big log (DESIGN §8, issue 3): the first read scans the file once (vs `wc -l`, the limit
// of one sequential scan, and vs `sed -n`), a repeated read uses the runtime's line index; a 2 GiB file must read.
import { createReadStream, createWriteStream } from 'node:fs';
import { access, rename } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { median } from '../harness/stats.js';
import { formatMegabytes, formatMs, formatRatio } from '../harness/table.js';
import type { BenchCase, BenchContext, Benchmark, CaseResult } from '../harness/types.js';

const CHILD = fileURLToPath(new URL('./read-file-child.ts', import.meta.url));
const LOG_LINES = 10_000_000;
const DEEP_LINE = 9_000_000;
const PAGE_LINES = 1000;
// Issue 3's goals.
const MAX_PEAK_RSS = 100 * 1024 * 1024;
const MAX_FIRST_VS_WC = 2;
const MIN_REPEAT_SPEEDUP = 10;

/** Line `n` of the generated log: deterministic, ~108 bytes (10M lines ≥ 1 GiB), like a web service's access log. */
function logLine(n: number): string {
  const time = new Date(Date.UTC(2024, 0, 1) + n * 37).toISOString();
  const item = String((n * 7919) % 100_000).padStart(5, '0');
  return `${time} INFO  [worker-${String(n % 16).padStart(2, '0')}] GET /api/v1/items/${item} status=200 bytes=${(n * 31) % 100_000} ms=${n % 997} ua=curl/8.5\n`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Writes `file` from `chunks()` through a stream (the data never fits in one string), once; renamed when complete. */
async function ensureStreamedFile(
  file: string,
  chunks: () => AsyncIterable<string | Buffer>,
): Promise<string> {
  if (await exists(file)) return file;
  const partial = `${file}.partial`;
  await pipeline(chunks(), createWriteStream(partial));
  await rename(partial, file);
  return file;
}

async function* logChunks(): AsyncGenerator<string> {
  let batch = '';
  for (let n = 1; n <= LOG_LINES; n++) {
    batch += logLine(n);
    if (n % 10_000 === 0) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

async function* twice(file: string): AsyncGenerator<Buffer> {
  for (let copy = 0; copy < 2; copy++) {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
  }
}

function sedRange(line: number): string {
  return `${line},${line + PAGE_LINES - 1}p`;
}

async function prepare({ dataDir, log }: BenchContext): Promise<BenchCase[]> {
  log('  generating the 10M-line log (once)');
  const oneGiB = await ensureStreamedFile(path.join(dataDir, 'access-10m-v2.log'), logChunks);
  log('  generating the 20M-line log (once)');
  const twoGiB = await ensureStreamedFile(path.join(dataDir, 'access-20m-v2.log'), () => twice(oneGiB));
  const deepInTwo = LOG_LINES + DEEP_LINE;
  const first = { script: CHILD, args: [oneGiB, String(DEEP_LINE), 'first'] };
  return [
    {
      label: `1 GiB, 10M lines: first read at line ${DEEP_LINE.toLocaleString('en')}`,
      ours: first,
      reference: { label: 'wc -l', argv: ['wc', '-l', oneGiB] },
    },
    {
      label: `1 GiB, 10M lines: first read at line ${DEEP_LINE.toLocaleString('en')}`,
      ours: first,
      reference: {
        label: `sed -n '${sedRange(DEEP_LINE)}'`,
        argv: ['sed', '-n', sedRange(DEEP_LINE), oneGiB],
      },
    },
    {
      label: `1 GiB, 10M lines: repeated read at line ${DEEP_LINE.toLocaleString('en')}`,
      ours: { script: CHILD, args: [oneGiB, String(DEEP_LINE), 'repeat'] },
      reference: { label: 'wc -l', argv: ['wc', '-l', oneGiB] },
    },
    {
      label: `2 GiB, 20M lines: first read at line ${deepInTwo.toLocaleString('en')}`,
      ours: { script: CHILD, args: [twoGiB, String(deepInTwo), 'first'] },
      reference: { label: 'wc -l', argv: ['wc', '-l', twoGiB] },
    },
  ];
}

const medianMs = (result: CaseResult, side: 'ours' | 'reference') =>
  median(result[side].map((run) => run.wallMs));

async function notes(results: CaseResult[]): Promise<string[]> {
  const [firstVsWc, , repeated, twoGiB] = results;
  if (!firstVsWc || !repeated || !twoGiB) return [];
  const firstMs = medianMs(firstVsWc, 'ours');
  const wcMs = medianMs(firstVsWc, 'reference');
  const repeatMs = medianMs(repeated, 'ours');
  // The child's own VmHWM: unlike ru_maxrss it leaves out what the parent held when it spawned the child.
  const peak = Math.max(
    ...results.flatMap((result) => result.ours.map((run) => run.details.peakRssBytes ?? 0)),
  );
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return [
    'Ours is timed inside a fresh Node process: `ReadFile.call` with `line_offset` at the line and `n_lines` 1000 ' +
      '(the page stops at 102400 bytes), checks, encoding detection, scan, index and read state included. ' +
      'The repeated read is the same call a second time in the same runtime.',
    `- First read vs \`wc -l\`: ${formatRatio(firstMs, wcMs)} (goal ≤ ${MAX_FIRST_VS_WC}×: ${verdict(firstMs <= MAX_FIRST_VS_WC * wcMs)}).`,
    `- Repeated read: ${formatMs(repeatMs)}, ${(firstMs / repeatMs).toFixed(0)}× faster than the first ` +
      `(goal ≥ ${MIN_REPEAT_SPEEDUP}×: ${verdict(firstMs >= MIN_REPEAT_SPEEDUP * repeatMs)}).`,
    `- Peak RSS of ours (the child's VmHWM, highest run): ${formatMegabytes(peak)} (goal < ${formatMegabytes(MAX_PEAK_RSS)}: ${verdict(peak < MAX_PEAK_RSS)}); ` +
      `the 2 GiB file read in ${formatMs(medianMs(twoGiB, 'ours'))}.`,
  ];
}

const readFileBenchmark: Benchmark = {
  title: 'ReadFile, a page deep in a big log',
  description:
    '`ReadFile.call` at line 9,000,000 of a 1 GiB, 10M-line log (generated once): the first read in a fresh runtime ' +
    'vs `wc -l` (one sequential scan, the limit) and vs `sed -n` printing the same lines; a repeated read in the same ' +
    'runtime; the same on a 2 GiB file (memory must stay bounded by the page, not the file).',
  prepare,
  notes,
};

export default readFileBenchmark;

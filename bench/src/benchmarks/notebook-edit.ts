// NotebookEdit, one code cell replaced in a 20 MB notebook with images (issue 16: within 1.5× of a minimal Node
// parse/modify/serialise script), both as whole processes editing the same fresh copy of the notebook.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomText, seededRandom } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';
import { freshCopyOf } from './fresh-copy.js';

const CHILD = fileURLToPath(new URL('./notebook-edit-child.ts', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./notebook-edit-reference.ts', import.meta.url));
const CELL_PAIRS = 200;
const IMAGE_BYTES = 72 * 1024;
const EDITED_CELL = `cell-${CELL_PAIRS + 1}`;
const NEW_SOURCE = 'import numpy as np\nprint(np.arange(10).sum())\n';

/** A notebook as nbformat writes it (1-space indent, sorted keys): markdown and code cells, each with a PNG output. */
function generateNotebook(): string {
  const random = seededRandom(16);
  const cells: unknown[] = [];
  for (let index = 0; index < CELL_PAIRS; index += 1) {
    const image = Buffer.alloc(IMAGE_BYTES);
    for (let at = 0; at < IMAGE_BYTES; at += 1) image[at] = Math.floor(random() * 256);
    cells.push({ cell_type: 'markdown', metadata: {}, source: randomText(index, 400, 70).split(/(?<=\n)/) });
    cells.push({
      cell_type: 'code',
      execution_count: index + 1,
      metadata: {},
      outputs: [
        { name: 'stdout', output_type: 'stream', text: randomText(index + 1000, 300, 60).split(/(?<=\n)/) },
        {
          data: {
            'image/png': image.toString('base64'),
            'text/plain': ['<Figure size 640x480 with 1 Axes>'],
          },
          metadata: {},
          output_type: 'display_data',
        },
      ],
      source: randomText(index + 2000, 200, 60).split(/(?<=\n)/),
    });
  }
  const metadata = { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } };
  return `${JSON.stringify({ cells, metadata, nbformat: 4, nbformat_minor: 4 }, null, 1)}\n`;
}

async function prepare({ dataDir, log }: BenchContext): Promise<Row[]> {
  log('  generating the 20 MB notebook (once)');
  const source = await ensureDataFile(path.join(dataDir, 'notebook-20mb-v1.ipynb'), generateNotebook);
  const { target, makeFresh, size, snapshotFile } = await freshCopyOf(source, dataDir, 'target.ipynb');
  return [
    {
      kind: 'whole-process',
      label: `NotebookEdit, one cell of a ${(size / 1e6).toFixed(1)} MB notebook`,
      referenceLabel: 'node parse/modify/serialise',
      goal: { time: 1.5 },
      ours: {
        kind: 'node',
        script: CHILD,
        args: [target, EDITED_CELL, NEW_SOURCE, snapshotFile],
      },
      reference: { kind: 'node', script: REFERENCE, args: [target, String(CELL_PAIRS + 1), NEW_SOURCE] },
      beforeEachRun: makeFresh,
    },
  ];
}

async function notes(results: RowResult[]): Promise<string[]> {
  const lines = [
    `Both sides replace the source of code cell ${EDITED_CELL} and clear its outputs in the same fresh copy (made ` +
      "before every run, untimed). Ours runs in a session that has read the notebook, rewrites only that cell's " +
      'text and writes atomically with fsync; the reference parses the whole notebook, changes the cell, ' +
      'serialises all of it with JSON.stringify and writes in place without fsync.',
  ];
  for (const result of results) {
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    lines.push(
      `- Ours, median split: Node start-up ${formatMs(ours('startMs'))}, import + build ${formatMs(ours('importMs'))}, ` +
        `NotebookEdit.call ${formatMs(ours('callMs'))}.`,
    );
  }
  return lines;
}

const notebookEditBenchmark: Benchmark = {
  title: 'NotebookEdit: one cell of a 20 MB notebook with images',
  description:
    'A fresh process replaces one code cell through `NotebookEdit` vs a fresh process running a minimal Node ' +
    'script that parses the notebook, replaces the cell, serialises it and writes the file.',
  prepare,
  notes,
};

export default notebookEditBenchmark;

// Cold start (issue 15, goal ≤ 1.3×): what a user pays to use one tool in a new process — Node, importing
// @kimi-tools/read (core, zod and all) and one ReadFile of a small file — vs a new bare Node process reading it. Two
// more rows, each against its own bare-Node samples of the same run, show where the floor lies: the same script
// bundled into one file (Node's per-module cost gone, the code's own work left), and core alone with its runtime; a
// last one shows what a host offering every tool pays before its first model turn.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataFile } from '../harness/bench-data.js';
import { medianOf } from '../harness/run-benchmark.js';
import { randomText } from '../harness/seeded-text.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, NodeScript, Row, RowResult } from '../harness/types.js';
import { bundleScript } from './cold-start-bundle.js';

const CHILD = fileURLToPath(new URL('./cold-start-child.ts', import.meta.url));
const CORE_CHILD = fileURLToPath(new URL('./cold-start-core-child.ts', import.meta.url));
const EVERY_TOOL_CHILD = fileURLToPath(new URL('./cold-start-every-tool-child.ts', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./cold-start-reference.ts', import.meta.url));
const GOAL = { time: 1.3 };
const MAIN_LABEL = 'cold start: import ReadFile, read a 4 KB file';
const BUNDLED_LABEL = 'floor: the same script bundled into one file';
const CORE_LABEL = 'part: import core, create the runtime, fs.readFile';
const EVERY_TOOL_LABEL = 'host: build every tool, list their JSON Schemas, fs.readFile';

/** The size of the bundle this run made, for the notes. */
const bundleBytes = new Map<string, number>();

async function prepare({ dataDir }: BenchContext): Promise<Row[]> {
  const file = await ensureDataFile(path.join(dataDir, 'small.ts'), () => randomText(7, 4 * 1024, 60));
  // Made afresh every run, from the packages as built now.
  const bundle = await bundleScript(CHILD, dataDir);
  bundleBytes.set(bundle.file, bundle.bytes);
  const reference: NodeScript = { kind: 'node', script: REFERENCE, args: [file] };
  const row = (label: string, script: string, goal: Row['goal']): Row => ({
    kind: 'whole-process',
    label,
    referenceLabel: 'node + fs.readFile',
    goal,
    ours: { kind: 'node', script, args: [file] },
    reference,
  });
  return [
    row(MAIN_LABEL, CHILD, GOAL),
    row(BUNDLED_LABEL, bundle.file, { text: 'the floor under ≤ 1.3×' }),
    row(CORE_LABEL, CORE_CHILD, { text: 'a part of the first row' }),
    row(EVERY_TOOL_LABEL, EVERY_TOOL_CHILD, { text: 'what a host offering every tool pays' }),
  ];
}

async function notes(results: RowResult[]): Promise<string[]> {
  const lines: string[] = [];
  for (const result of results) {
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    const script = result.row.kind === 'whole-process' ? result.row.ours.script : '';
    if (script === CHILD) {
      lines.push(
        `- ${MAIN_LABEL}: ours, median split: Node start-up and this script ${formatMs(ours('startMs'))}, ` +
          `importing @kimi-tools/core and @kimi-tools/read and building the tool ${formatMs(ours('importMs'))}, ` +
          `the first ReadFile.call ${formatMs(ours('callMs'))}; the rest is printing and exit.`,
      );
    } else if (script === CORE_CHILD) {
      lines.push(
        `- ${CORE_LABEL}: Node start-up and this script ${formatMs(ours('startMs'))}, importing ` +
          `@kimi-tools/core and creating the runtime ${formatMs(ours('importMs'))}.`,
      );
    } else if (script === EVERY_TOOL_CHILD) {
      lines.push(
        `- ${EVERY_TOOL_LABEL}: importing core and the eight tool packages and building the ten tools on one runtime ` +
          `${formatMs(ours('importMs'))}, writing their JSON Schemas ${formatMs(ours('schemasMs'))} ` +
          `(${Math.round(ours('schemaBytes'))} characters), after Node's start-up ${formatMs(ours('startMs'))}.`,
      );
    } else {
      const kib = Math.round((bundleBytes.get(script) ?? 0) / 1024);
      lines.push(
        `- ${BUNDLED_LABEL}: the first row's script, with core (its picomatch inside) and @kimi-tools/read (its zod ` +
          `inside), bundled by esbuild into one ES module of ${kib} KiB: one module for Node to resolve, read and ` +
          `compile instead of five. Split: Node start-up with the compiling of the whole file ${formatMs(ours('startMs'))}, ` +
          `the rest of the import and the build ${formatMs(ours('importMs'))}, the call ` +
          `${formatMs(ours('callMs'))}. What it still costs over bare Node ` +
          'is the code itself: compiling it, setting up zod, building the runtime (the sensitive-file globs) and the ' +
          'call. No layout of the modules gets below it.',
      );
    }
  }
  return lines;
}

const coldStart: Benchmark = {
  title: 'Cold start: importing a tool and reading a small file',
  description:
    'A fresh process imports @kimi-tools/read, creates a runtime and reads a small file once, vs a fresh bare Node ' +
    'process (an ES module too) reading the same file. The floor row runs the same script bundled into one file; ' +
    'the part row imports core alone; the host row builds every tool and lists their JSON Schemas. Each row has its ' +
    'own bare-Node samples, taken in turn with its own.',
  prepare,
  notes,
};

export default coldStart;

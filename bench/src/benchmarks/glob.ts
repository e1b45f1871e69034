// Glob `**/*.ts` (issue 15): a whole process vs `rg --files` doing the same job (goal ≤ 1.5×), and in one warm
// process vs tinyglobby (in-call, goal ≤ 0.8×).
import { fileURLToPath } from 'node:url';
import { findRipgrep, VCS_DIRECTORIES } from '@kimi-tools/search';
import { medianOf } from '../harness/run-benchmark.js';
import { formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Command, Row, RowResult } from '../harness/types.js';
import { IN_FLIGHT } from './glob-floor-walk.js';
import { describeSearchTree, searchRoot } from './search-root.js';

const CHILD = fileURLToPath(new URL('./glob-child.ts', import.meta.url));
const IN_CALL_CHILD = fileURLToPath(new URL('./glob-in-call-child.ts', import.meta.url));
const FLOOR_CHILD = fileURLToPath(new URL('./glob-floor-child.ts', import.meta.url));
const FLOOR_IN_CALL_CHILD = fileURLToPath(new URL('./glob-floor-in-call-child.ts', import.meta.url));
/** The pattern Glob is asked for (and `rg --files -g` given). */
export const GLOB_PATTERN = '**/*.ts';
const PATTERN = GLOB_PATTERN;
/** What the floor walk matches instead of {@link PATTERN}: the name suffix alone. */
const SUFFIX = '.ts';
const FLOOR_LABEL = 'Node floor: plain readdir walk';

/**
 * ripgrep listing the files Glob lists with `include_dirs: false`: hidden files included, ignore files read inside a
 * git repository or not, version-control folders and `node_modules` skipped.
 */
export function ripgrepFilesArgs(pattern: string): string[] {
  const excluded = [...VCS_DIRECTORIES, 'node_modules'].flatMap((dir) => ['--glob', `!${dir}`]);
  return ['--no-config', '--files', '--hidden', '--no-require-git', '--glob', pattern, ...excluded];
}

async function prepare(context: BenchContext): Promise<Row[]> {
  const { root } = await searchRoot(context);
  const rg = await findRipgrep(undefined);
  if (rg === null) throw new Error('ripgrep not found: install the dependencies of @kimi-tools/search');
  const ripgrep: Command = { kind: 'command', argv: [rg, ...ripgrepFilesArgs(PATTERN)], cwd: root };
  return [
    {
      kind: 'whole-process',
      label: `Glob \`${PATTERN}\``,
      referenceLabel: `rg --files -g '${PATTERN}'`,
      goal: { time: 1.5 },
      ours: { kind: 'node', script: CHILD, args: [root, PATTERN] },
      reference: ripgrep,
    },
    {
      kind: 'whole-process',
      label: FLOOR_LABEL,
      referenceLabel: `rg --files -g '${PATTERN}'`,
      goal: { text: 'the floor under ≤ 1.5×' },
      ours: { kind: 'node', script: FLOOR_CHILD, args: [root, SUFFIX] },
      reference: ripgrep,
    },
    {
      kind: 'in-call',
      label: `Glob \`${PATTERN}\``,
      referenceLabel: 'tinyglobby',
      goal: { time: 0.8 },
      child: { kind: 'node', script: IN_CALL_CHILD, args: [root, PATTERN, String(context.runs)] },
    },
    {
      kind: 'in-call',
      label: FLOOR_LABEL,
      referenceLabel: 'tinyglobby',
      goal: { text: 'the floor under ≤ 0.8×' },
      child: {
        kind: 'node',
        script: FLOOR_IN_CALL_CHILD,
        args: [root, PATTERN, SUFFIX, String(context.runs)],
      },
    },
  ];
}

async function notes(results: RowResult[], context: BenchContext): Promise<string[]> {
  const ofScript = (script: string) =>
    results.find(
      (result) => (result.row.kind === 'in-call' ? result.row.child : result.row.ours).script === script,
    );
  const wholeProcess = ofScript(CHILD);
  const inCall = ofScript(IN_CALL_CHILD);
  const floorInCall = ofScript(FLOOR_IN_CALL_CHILD);
  if (!wholeProcess || !inCall) return [];
  const ours = (key: string) => medianOf(wholeProcess.ours, (sample) => sample.details[key]);
  const oursWall = medianOf(wholeProcess.ours, (sample) => sample.wallMs);
  const ripgrepFiles = medianOf(wholeProcess.reference, (sample) => sample.details['stdoutLines']);
  const tail = oursWall - ours('startMs') - ours('importMs') - ours('callMs');
  const inCallDetails = inCall.ours[0]!.details;
  return [
    `Tree: ${describeSearchTree(context)}. Ours: a fresh \`node\` builds Glob, calls it with \`include_dirs: false\` ` +
      '(files only, as `rg --files`), prints output (at most 1000 paths) and message, exits. The reference: ' +
      `\`rg ${ripgrepFilesArgs(PATTERN).join(' ')}\`, output drained through a pipe.`,
    `- Whole process, ours, median split: Node start-up ${formatMs(ours('startMs'))}, import + build ` +
      `${formatMs(ours('importMs'))}, Glob.call ${formatMs(ours('callMs'))}, printing + exit + spawn ${formatMs(tail)}.`,
    `- Results: Glob found ${ours('total')} files (and counted ${ours('hidden')} more hidden by ignore rules, within ` +
      `its budget); \`rg --files\` listed ${ripgrepFiles}; tinyglobby (no ignore files) ${inCallDetails['tinyglobbyTotal']}.`,
    `- The floor rows: a Node process that only walks the tree with \`fs.readdir(withFileTypes)\`, ` +
      `${IN_FLIGHT} directories in flight, skipping the same folders (${[...VCS_DIRECTORIES, 'node_modules'].join(', ')}), ` +
      `reading no ignore file and keeping the names ending in \`${SUFFIX}\`; whole process it prints them all, ` +
      'unsorted. No Node Glob can beat it: what it costs is Node on this machine.' +
      (floorInCall ? ` It found ${floorInCall.ours[0]!.details['floorTotal']} files.` : ''),
  ];
}

const globBenchmark: Benchmark = {
  title: 'Glob vs `rg --files` and tinyglobby',
  description:
    '`Glob` `**/*.ts` (files only) on the search tree: a whole process per sample vs ripgrep listing the same files ' +
    '(goal ≤ 1.5×), and in one warm process vs tinyglobby (in-call, goal ≤ 0.8×); each with a floor row, a plain ' +
    'Node walk of the same tree in its place.',
  prepare,
  notes,
};

export default globBenchmark;

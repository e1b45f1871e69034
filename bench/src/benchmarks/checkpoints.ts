// Checkpoints (issue 32) on the search tree (the corpus, or the synthetic tree): a checkpoint with nothing changed vs
// `git status` (goal ≤ 1.0×), with 100 files changed vs `git add -A && git commit` (≤ 1.5×), the first checkpoint of
// the tree (its time and store size, beside git's first commit), and a rewind of 100 changed files vs
// `git checkout -- .` (≤ 1.5×). Every side is a fresh process on the same tree. Floor rows put in the checkpoint's
// place a Node process that only lstats every path, found by a walk or read from a list (checkpoints-floor.ts),
// against the references of the nothing-changed checkpoint and of the rewind (a rewind scans too: it finds what the
// user changed since).
import { execFile } from 'node:child_process';
import { readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { medianOf } from '../harness/run-benchmark.js';
import { formatMegabytes, formatMs } from '../harness/table.js';
import type { BenchContext, Benchmark, Command, Row, RowResult } from '../harness/types.js';
import { changeFiles, ensureRepositoryTree, filesToChange, git, GIT_FLAGS } from './checkpoint-trees.js';
import { describeSearchTree, searchRoot } from './search-root.js';

const CHILD = fileURLToPath(new URL('./checkpoints-child.ts', import.meta.url));
const FLOOR = fileURLToPath(new URL('./checkpoints-floor.ts', import.meta.url));
const CHANGED_FILES = 100;
const run = promisify(execFile);

/** `git` with the bench's flags, as one shell word list. */
const GIT = ['git', ...GIT_FLAGS].join(' ');

/** What the files under `directory` hold (their sizes) and take on disk (their blocks). */
async function bytesUnder(directory: string): Promise<{ size: number; disk: number }> {
  const total = { size: 0, disk: 0 };
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const stats = await stat(path.join(entry.parentPath, entry.name));
    total.size += stats.size;
    total.disk += stats.blocks * 512;
  }
  return total;
}

/** The labels of the rows, for the notes. */
const LABELS = {
  noChange: 'Checkpoint, nothing changed',
  changed: `Checkpoint, ${CHANGED_FILES} files changed`,
  first: 'First checkpoint of the tree',
  rewind: `Rewind of ${CHANGED_FILES} changed files`,
  walkFloor: 'Node floor: start-up, walk and `lstat` of every path',
  listFloor: 'Node floor: start-up, read a path list, `lstat` of every path',
  restoreFloor: `Node floor: start-up, read a path list, \`lstat\` of every path, ${CHANGED_FILES} atomic durable writes`,
};

/** The time goals of the rows (issue 32). */
const GOALS = { noChange: 1.0, changed: 1.5, rewind: 1.5 };

interface Prepared {
  /** Where the first checkpoint's store and git's first repository go. */
  firstStore: string;
  firstGit: string;
  tree: string;
}

async function prepare(context: BenchContext, prepared: Prepared): Promise<Row[]> {
  const { dataDir, log } = context;
  const source = (await searchRoot(context)).root;
  const dir = await realpath(dataDir);
  // One tree that is never committed to again (status, first checkpoint, rewind), one that commits every run.
  const tree = await ensureRepositoryTree(source, path.join(dir, 'tree'), log);
  const committing = await ensureRepositoryTree(source, path.join(dir, 'committing-tree'), log);
  const stores = {
    noChange: path.join(dir, 'store-no-change'),
    changed: path.join(dir, 'store-changed'),
    rewind: path.join(dir, 'store-rewind'),
  };
  prepared.firstStore = path.join(dir, 'store-first');
  prepared.firstGit = path.join(dir, 'first.git');
  prepared.tree = tree;
  let tag = 0;

  // The rewind's checkpoint 1: the tree as committed, in a store of its own made afresh.
  await git(tree, 'checkout', '-q', '--', '.');
  await rm(stores.rewind, { recursive: true, force: true });
  log('  taking the checkpoint the rewind row goes back to');
  await context.runScript({ kind: 'node', script: CHILD, args: ['create', tree, stores.rewind] });
  const rewound = await filesToChange(tree, CHANGED_FILES);
  const committed = await filesToChange(committing, CHANGED_FILES);

  const create = (workDir: string, store: string) => ({
    kind: 'node' as const,
    script: CHILD,
    args: ['create', workDir, store],
  });
  // Each reference, and the rewind's set-up, shared by the row and the floor row under it.
  const status: Command = {
    kind: 'command',
    argv: ['git', ...GIT_FLAGS, 'status', '--porcelain'],
    cwd: tree,
  };
  const checkout: Command = {
    kind: 'command',
    argv: ['git', ...GIT_FLAGS, 'checkout', '-q', '--', '.'],
    cwd: tree,
  };
  // The same 100 files changed for both, and checkpointed (untimed) so that the rewind takes them for the agent's: a
  // change made after the last checkpoint is the user's, which a rewind does not overwrite.
  const changeForRewind = async () => {
    await git(tree, 'checkout', '-q', '--', '.');
    await changeFiles(tree, rewound, String(++tag));
    await context.runScript({ kind: 'node', script: CHILD, args: ['create', tree, stores.rewind] });
  };
  // The list floor's paths: those the walk finds, written by one untimed walk of the tree as committed.
  const pathList = path.join(dir, 'tree-paths.list');
  await context.runScript({ kind: 'node', script: FLOOR, args: ['walk', tree, pathList] });
  // The files the rewind row restores, for the floor that writes as many the way a rewind writes them.
  const restoreList = path.join(dir, 'tree-rewound.list');
  await writeFile(restoreList, rewound.join('\0'));
  const floors = [
    { label: LABELS.walkFloor, ours: { kind: 'node' as const, script: FLOOR, args: ['walk', tree] } },
    {
      label: LABELS.listFloor,
      ours: { kind: 'node' as const, script: FLOOR, args: ['list', tree, pathList] },
    },
  ];
  return [
    {
      kind: 'whole-process',
      label: LABELS.noChange,
      referenceLabel: 'git status --porcelain',
      goal: { time: GOALS.noChange },
      ours: create(tree, stores.noChange),
      reference: status,
    },
    ...floors.map(({ label, ours }): Row => ({
      kind: 'whole-process',
      label,
      referenceLabel: 'git status --porcelain',
      goal: { text: `the floor under ≤ ${GOALS.noChange}×` },
      ours,
      reference: status,
    })),
    {
      kind: 'whole-process',
      label: LABELS.changed,
      referenceLabel: 'git add -A && git commit',
      goal: { time: GOALS.changed },
      ours: create(committing, stores.changed),
      reference: {
        kind: 'command',
        argv: ['sh', '-c', `${GIT} add -A && ${GIT} commit -q -m change`],
        cwd: committing,
      },
      beforeEachRun: () => changeFiles(committing, committed, String(++tag)),
    },
    {
      kind: 'whole-process',
      label: LABELS.first,
      referenceLabel: "git's first add and commit",
      goal: { text: 'time and store size reported' },
      ours: create(tree, prepared.firstStore),
      reference: {
        kind: 'command',
        argv: [
          'sh',
          '-c',
          `${GIT} --git-dir="$0" init -q && ${GIT} --git-dir="$0" --work-tree=. add -A && ` +
            `${GIT} --git-dir="$0" --work-tree=. commit -q -m first`,
          prepared.firstGit,
        ],
        cwd: tree,
      },
      beforeEachRun: async () => {
        await rm(prepared.firstStore, { recursive: true, force: true });
        await rm(prepared.firstGit, { recursive: true, force: true });
      },
    },
    {
      kind: 'whole-process',
      label: LABELS.rewind,
      referenceLabel: 'git checkout -- .',
      goal: { time: GOALS.rewind },
      ours: { kind: 'node', script: CHILD, args: ['rewind', tree, stores.rewind, '1'] },
      reference: checkout,
      beforeEachRun: changeForRewind,
    },
    ...[
      ...floors,
      // A rewind also writes what it restores as every write here is written: a temp file, fsync, rename, fsync of
      // the directory (docs/writing.md), where `git checkout` writes in place without a sync.
      {
        label: LABELS.restoreFloor,
        ours: { kind: 'node' as const, script: FLOOR, args: ['restore', tree, pathList, restoreList] },
      },
    ].map(({ label, ours }): Row => ({
      kind: 'whole-process',
      label,
      referenceLabel: 'git checkout -- .',
      goal: { text: `the floor under ≤ ${GOALS.rewind}×` },
      ours,
      reference: checkout,
      beforeEachRun: changeForRewind,
    })),
  ];
}

async function notes(results: RowResult[], context: BenchContext, prepared: Prepared): Promise<string[]> {
  const lines = [
    `Tree: ${describeSearchTree(context)}, copied twice into the data directory, each copy a git repository with ` +
      'everything committed once. Each row uses a store of its own; before every run of either side the ' +
      `"${LABELS.changed}" row appends a line to the same ${CHANGED_FILES} files, the "${LABELS.first}" row ` +
      `removes the store and git's repository, and the "${LABELS.rewind}" row changes ${CHANGED_FILES} files ` +
      "and takes a checkpoint (untimed), so the rewind finds them the agent's. The floor rows run a Node process " +
      'with no code of ours that lstats every path, one `lstat` each (version-control folders and `node_modules` ' +
      'skipped, no ignore file read): the least a checkpoint that must notice changes made by anything else does ' +
      'in a fresh process. "walk": the paths found by a walk (`readdirSync` with types), as a scan without an ' +
      'index finds them; "path list": read from a file holding the paths the walk found, as a scan reads its last ' +
      'index (a directory whose stamps did not move holds the same names, so nothing needs listing). Each stands ' +
      "against the reference of the row it floors, with that row's set-up (a rewind scans too: it finds what the " +
      'user changed after the agent).',
  ];
  for (const result of results) {
    if (isFloor(result)) {
      lines.push(floorNote(result, results));
      continue;
    }
    const ours = (key: string) => medianOf(result.ours, (sample) => sample.details[key]);
    lines.push(
      `- ${result.row.label}, ours, median split: Node start-up ${formatMs(ours('startMs'))}, import + build ` +
        `${formatMs(ours('importMs'))}, the call ${formatMs(ours('callMs'))}; files changed: ${ours('files')}.`,
    );
  }
  const first = results.find((result) => result.row.label === LABELS.first);
  if (first !== undefined) {
    // Once more each, untimed, to weigh what both keep; on the tree as committed (the floor row under the rewind may
    // have run last, after changing 100 files).
    await git(prepared.tree, 'checkout', '-q', '--', '.');
    await rm(prepared.firstStore, { recursive: true, force: true });
    await rm(prepared.firstGit, { recursive: true, force: true });
    await context.runScript({
      kind: 'node',
      script: CHILD,
      args: ['create', prepared.tree, prepared.firstStore],
    });
    const ref = first.row.kind === 'whole-process' ? first.row.reference : undefined;
    if (ref?.kind === 'command') await run(ref.argv[0]!, ref.argv.slice(1), { cwd: prepared.tree });
    const [store, repository] = [await bytesUnder(prepared.firstStore), await bytesUnder(prepared.firstGit)];
    lines.push(
      `- ${LABELS.first}: the store holds ${formatMegabytes(store.size)} in its files (packs, records and the index ` +
        `of the scan), ${formatMegabytes(store.disk)} on disk; git's repository after its first commit ` +
        `${formatMegabytes(repository.size)}, ${formatMegabytes(repository.disk)} on disk.`,
    );
  }
  return lines;
}

function isFloor(result: RowResult): boolean {
  return result.row.kind === 'whole-process' && result.row.ours.script === FLOOR;
}

/** Median wall time of samples. */
function wall(samples: RowResult['ours']): number {
  return medianOf(samples, (sample) => sample.wallMs);
}

/** A floor row's line: its split, its ratio, and the checkpoint's against it (the row with the same reference). */
function floorNote(floor: RowResult, results: readonly RowResult[]): string {
  const split = (key: string) => medianOf(floor.ours, (sample) => sample.details[key]);
  const reference = floor.row.kind === 'whole-process' ? floor.row.reference : undefined;
  const floored = results.find(
    (result) => !isFloor(result) && result.row.kind === 'whole-process' && result.row.reference === reference,
  );
  const against =
    floored === undefined
      ? ''
      : ` ${floored.row.label}: ${(wall(floored.ours) / wall(floored.reference)).toFixed(2)}× the reference, ` +
        `${(wall(floored.ours) / wall(floor.ours)).toFixed(2)}× the floor.`;
  return (
    `- ${floor.row.label} vs ${floor.row.referenceLabel}: ${formatMs(wall(floor.ours))}, ` +
    `${(wall(floor.ours) / wall(floor.reference)).toFixed(2)}× the reference in the same run; median split: Node ` +
    `start-up ${formatMs(split('startMs'))}, ${floor.row.label.replace('Node floor: start-up, ', '')} ` +
    `(${split('paths')} paths) ${formatMs(split('workMs'))}.${against}`
  );
}

/** The benchmark; `prepared` is filled by `prepare` for the notes. */
function checkpointsBenchmark(): Benchmark {
  const prepared: Prepared = { firstStore: '', firstGit: '', tree: '' };
  return {
    title: 'Checkpoints: a checkpoint and a rewind vs git status, commit and checkout',
    description:
      'A fresh process takes a checkpoint of the tree through `@kimi-tools/checkpoints` (nothing changed; 100 files ' +
      'changed; the first one, into an empty store) or rewinds 100 changed files, vs git doing the same on the ' +
      'same tree; floor rows, a Node process that only lstats every path (found by a walk, or read from a list), ' +
      'against the references of the nothing-changed checkpoint and of the rewind.',
    prepare: (context) => prepare(context, prepared),
    notes: (results, context) => notes(results, context, prepared),
  };
}

export default checkpointsBenchmark();

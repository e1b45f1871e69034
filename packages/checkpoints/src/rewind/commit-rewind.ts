import type { ToolRuntime } from '@kimi-tools/core';
import {
  commitFileSet,
  CommitFailedError,
  FileLockLostError,
  hashBytes,
  isMissingPathError,
  readPreviousState,
  RUNTIME_DIRECTORIES,
  withFileSetLocks,
  type ChangeDirectories,
  type CommitStep,
  type HeldFileSetLocks,
  type PreviousState,
} from '@kimi-tools/core/toolkit';
import type { FileStats } from '@kimi-tools/core/fs';
import type { EntryLookup, ManifestEntry } from '../scan/manifest.js';
import type { PlannedMerge, RewindPlan } from './plan-rewind.js';
import { directoriesAbove } from '../scan/workspace-paths.js';

/** How a commit of a rewind ended. */
export type RewindCommit =
  | { kind: 'done' }
  | { kind: 'changed'; paths: string[] }
  | { kind: 'failed'; message: string; unrestored: string[] };

/** Files read at once (what each holds before the commit). */
const READ_CONCURRENCY = 16;

/** Whether what is at a path now is still what the scan saw there. */
function stillHolds(previous: PreviousState, seen: ManifestEntry | undefined): boolean {
  if (seen === undefined) return previous.kind === 'missing';
  if (seen.type === 'link') return previous.kind === 'symlink' && previous.target === seen.target;
  if (previous.kind !== 'file') return false;
  if (seen.type === 'large') return previous.bytes.length === seen.size;
  return seen.type === 'file' && hashBytes(previous.bytes) === seen.hash;
}

/**
 * The paths of `written` one of whose directories is now a link or a file (the scan saw directories there, or
 * nothing): written, they would go through it, maybe out of the workspace. Each directory is lstat'ed once.
 */
async function pathsThroughNonDirectories(
  runtime: ToolRuntime,
  root: string,
  written: readonly string[],
): Promise<string[]> {
  const looks = new Map<string, Promise<boolean>>();
  const isPassable = (directory: string) => {
    let look = looks.get(directory);
    if (look === undefined) {
      look = runtime.fs.lstat(`${root}/${directory}`).then(
        (stats) => stats.isDirectory(),
        (error: unknown) => {
          if (isMissingPathError(error)) return true;
          throw error;
        },
      );
      looks.set(directory, look);
    }
    return look;
  };
  const through: string[] = [];
  for (const path of written) {
    for (const directory of directoriesAbove(path)) {
      if (!(await isPassable(directory))) {
        through.push(path);
        break;
      }
    }
  }
  return through;
}

/** Paths written through a directory that became a link or a file right before the renames. */
class SwappedSinceCheckError extends Error {
  constructor(readonly paths: string[]) {
    super('a directory on the way became a link or a file since it was checked');
  }
}

/** A failed commit as a rewind reports it: the paths it could not put back relative to the workspace. */
function failedCommit(root: string, error: unknown): RewindCommit {
  if (error instanceof CommitFailedError) {
    return {
      kind: 'failed',
      message: error.message,
      unrestored: error.unrestored.map((path) => path.slice(root.length + 1)),
    };
  }
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error), unrestored: [] };
}

/** What a commit of a planned rewind writes, and how it knows what the scan saw. */
interface RewindWrites {
  root: string;
  /** The restored and merged paths, relative to `root`. */
  written: readonly string[];
  merged: ReadonlyMap<string, PlannedMerge>;
  target: EntryLookup;
  now: EntryLookup;
  restoredBytes: (path: string) => Uint8Array;
  /** Every name of the file with these stats that the scan saw (hard links), when it knows. */
  namesOfFile: (stats: FileStats) => readonly string[] | undefined;
}

/**
 * Whether the file at `path`, with `stats`, is rewritten in place (docs/writing.md#several-files-at-once): it has
 * several hard links, so a rename would split them. Only when the scan saw every one of its names (none is ignored,
 * or outside the workspace) and each is to hold the same bytes and mode after the rewind: an in-place write changes
 * every name, and one not rewound, rewound to other bytes or another mode, or never looked at (a denied file's, a name
 * outside) must not change. Otherwise the path is replaced, and parts from them. `contents` says what each written
 * path will hold.
 */
function rewritesInPlace(
  path: string,
  stats: FileStats | undefined,
  contents: ReadonlyMap<string, string>,
  namesOfFile: RewindWrites['namesOfFile'],
): boolean {
  const links = stats?.nlink ?? 1;
  if (stats === undefined || links <= 1) return false;
  const names = namesOfFile(stats);
  if (names === undefined || names.length < links) return false;
  const content = contents.get(path);
  return names.every((name) => contents.get(name) === content);
}

/**
 * The step under the locks: every written path still what the scan saw and no directory above it a link or a file
 * (else nothing is written), then one {@link commitFileSet} of them all, from what each holds now (to undo a failure).
 */
async function checkAndCommit(
  runtime: ToolRuntime,
  writes: RewindWrites,
  locks: HeldFileSetLocks,
): Promise<RewindCommit> {
  const { root, written, merged, target, now } = writes;
  const absolute = (path: string) => `${root}/${path}`;
  // What each written file will hold, by its hash and mode: names of one file may share an in-place write (which sets
  // the bits of all of them) only if alike in both.
  const contents = new Map<string, string>();
  for (const path of written) {
    const merge = merged.get(path);
    const entry = target(path);
    if (merge !== undefined) contents.set(path, `${hashBytes(merge.bytes)} ${merge.mode}`);
    else if (entry?.type === 'file') contents.set(path, `${entry.hash} ${entry.mode}`);
  }
  const steps = new Array<CommitStep | undefined>(written.length);
  const changed: string[] = [];
  let next = 0;
  // What each path holds now, read a few at a time.
  const lane = async () => {
    while (next < written.length) {
      const at = next++;
      const path = written[at]!;
      const { state: previous, stats } = await readPreviousState(runtime.fs, absolute(path));
      if (!stillHolds(previous, now(path))) changed.push(path);
      const merge = merged.get(path);
      const entry = target(path);
      const inPlace = rewritesInPlace(path, stats, contents, writes.namesOfFile);
      if (merge !== undefined) {
        const { bytes, mode } = merge;
        steps[at] = { kind: 'write', path: absolute(path), bytes, mode, inPlace, previous };
      } else if (entry === undefined) steps[at] = { kind: 'remove', path: absolute(path), previous };
      else if (entry.type === 'link')
        steps[at] = { kind: 'symlink', path: absolute(path), target: entry.target, previous };
      else if (entry.type === 'file') {
        const bytes = writes.restoredBytes(path);
        steps[at] = { kind: 'write', path: absolute(path), bytes, mode: entry.mode, inPlace, previous };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, written.length) }, lane));
  // A directory may have become a link since the commit's first look, while the locks were taken.
  changed.push(...(await pathsThroughNonDirectories(runtime, root, written)));
  if (changed.length > 0) return { kind: 'changed', paths: [...new Set(changed)].sort() };
  try {
    // A rewind suspended past a lock's stale time has lost it, and another writer may have changed that file since
    // it was checked: nothing is written then, as the editing tools do.
    await locks.verify();
  } catch (error) {
    if (!(error instanceof FileLockLostError)) throw error;
    return { kind: 'changed', paths: [error.filePath.slice(root.length + 1)] };
  }
  try {
    await commitFileSet(
      runtime.fs,
      steps.filter((step): step is CommitStep => step !== undefined),
      {
        // The temp files take a while (round trips on a remote host): a directory may have become a link meanwhile,
        // and a rename through it would land wherever it leads.
        beforeRenames: async () => {
          const through = await pathsThroughNonDirectories(runtime, root, written);
          if (through.length > 0) throw new SwappedSinceCheckError(through);
        },
      },
    );
    return { kind: 'done' };
  } catch (error) {
    if (error instanceof CommitFailedError && error.cause instanceof SwappedSinceCheckError)
      return { kind: 'changed', paths: error.cause.paths.sort() };
    return failedCommit(root, error);
  }
}

/**
 * Writes a planned rewind as the editing tools write (docs/checkpoints.md#rewind). No directory above a written path
 * may be a link or a file; the checkpoint's directories are made (a lock file lives beside its file); then, holding
 * the runtime's lock and the lock file of every written path (core's {@link withFileSetLocks}: ApplyPatch's order,
 * waits and stale locks), {@link checkAndCommit}. Unless that is done, the directories made are removed again once the
 * locks are let go; when it is, the directories the checkpoint did not have are removed when nothing is left in them.
 * A lock another writer holds past the wait throws its message, with nothing written.
 */
export async function commitRewind(
  runtime: ToolRuntime,
  root: string,
  plan: RewindPlan,
  target: EntryLookup,
  now: EntryLookup,
  restoredBytes: (path: string) => Uint8Array,
  namesOfFile: RewindWrites['namesOfFile'],
): Promise<RewindCommit> {
  const absolute = (path: string) => `${root}/${path}`;
  const merged = new Map(plan.merge.map((item) => [item.path, item]));
  const written = [...plan.restore, ...merged.keys()];
  // Through a link, a directory made or a lock file taken would land wherever it leads.
  const through = await pathsThroughNonDirectories(runtime, root, written);
  if (through.length > 0) return { kind: 'changed', paths: through.sort() };
  // The checkpoint's mode for a directory it had; the backend's default for one a lock file needs.
  const modes = new Map(
    plan.makeDirectories.map((directory) => {
      const entry = target(directory);
      return [absolute(directory), entry?.type === 'dir' ? entry.mode : undefined];
    }),
  );
  // Made and removed as the runtime's other changes make and remove theirs: a call beside this one may write into
  // them, or have made those this one found (docs/writing.md#one-change-at-a-time).
  let directories: ChangeDirectories | undefined;
  let outcome: RewindCommit | undefined;
  try {
    try {
      directories = await runtime
        .slot(RUNTIME_DIRECTORIES)
        .begin([...modes.keys()], (directory) => modes.get(directory));
    } catch (error) {
      outcome = failedCommit(root, error);
    }
    outcome ??= await withFileSetLocks(
      runtime,
      written.map(absolute),
      (locks) =>
        checkAndCommit(runtime, { root, written, merged, target, now, restoredBytes, namesOfFile }, locks),
      directories?.remake,
    );
  } finally {
    // Only once the locks are let go: a directory still holding a lock file cannot be removed.
    await directories?.end(outcome?.kind === 'done');
  }
  if (outcome.kind !== 'done') return outcome;
  // Every file is restored: a directory that cannot be removed (still holding what the checkpoints do not track,
  // ignored files; or any other failure) stays, and the rewind is done all the same.
  for (const directory of plan.removeDirectories)
    await runtime.fs.rmdir(absolute(directory)).catch(() => undefined);
  return outcome;
}

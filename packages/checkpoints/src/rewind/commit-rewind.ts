import type { ToolRuntime } from '@kimi-tools/core';
import {
  commitFileSet,
  CommitFailedError,
  hashBytes,
  isMissingPathError,
  readPreviousState,
  type CommitStep,
  type PreviousState,
} from '@kimi-tools/core/toolkit';
import type { EntryLookup, ManifestEntry } from '../scan/manifest.js';
import type { RewindPlan } from './plan-rewind.js';
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

/** Runs `task` holding the runtime's lock of every path, taken in one order (so no two callers deadlock). */
function withPathLocks<T>(
  runtime: ToolRuntime,
  paths: readonly string[],
  task: () => Promise<T>,
): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const take = (index: number): Promise<T> =>
    index === sorted.length ? task() : runtime.locks.run(sorted[index]!, () => take(index + 1));
  return take(0);
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

/**
 * Writes a planned rewind: the checkpoint's directories made first, then, holding the runtime's lock of every
 * path, each file checked to still be what the scan saw (else nothing is written) and every file restored or merged
 * in one {@link commitFileSet} (all of them or, on a failure, none: each is put back and the directories made are
 * removed); last, the directories the checkpoint did not have are removed when nothing is left in them.
 */
export async function commitRewind(
  runtime: ToolRuntime,
  root: string,
  plan: RewindPlan,
  target: EntryLookup,
  now: EntryLookup,
  restoredBytes: (path: string) => Uint8Array,
): Promise<RewindCommit> {
  const absolute = (path: string) => `${root}/${path}`;
  const merged = new Map(plan.merge.map((item) => [item.path, item]));
  const written = [...plan.restore, ...merged.keys()];
  const created: string[] = [];
  const outcome = await withPathLocks(runtime, written.map(absolute), async (): Promise<RewindCommit> => {
    const steps = new Array<CommitStep | undefined>(written.length);
    const changed: string[] = [];
    let next = 0;
    // What each path holds now (for undoing a failed commit), read a few at a time.
    const lane = async () => {
      while (next < written.length) {
        const at = next++;
        const path = written[at]!;
        const { state: previous } = await readPreviousState(runtime.fs, absolute(path));
        if (!stillHolds(previous, now(path))) changed.push(path);
        const merge = merged.get(path);
        const entry = target(path);
        if (merge !== undefined)
          steps[at] = { kind: 'write', path: absolute(path), bytes: merge.bytes, mode: merge.mode, previous };
        else if (entry === undefined) steps[at] = { kind: 'remove', path: absolute(path), previous };
        else if (entry.type === 'link')
          steps[at] = { kind: 'symlink', path: absolute(path), target: entry.target, previous };
        else if (entry.type === 'file') {
          const bytes = restoredBytes(path);
          steps[at] = { kind: 'write', path: absolute(path), bytes, mode: entry.mode, previous };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, written.length) }, lane));
    changed.push(...(await pathsThroughNonDirectories(runtime, root, written)));
    if (changed.length > 0) return { kind: 'changed', paths: [...new Set(changed)].sort() };
    try {
      for (const directory of plan.makeDirectories) {
        const entry = target(directory);
        await runtime.fs.mkdir(absolute(directory), { mode: entry?.type === 'dir' ? entry.mode : 0o755 });
        created.push(directory);
        if (entry?.type === 'dir') await runtime.fs.chmod(absolute(directory), entry.mode);
      }
      await commitFileSet(
        runtime.fs,
        steps.filter((step): step is CommitStep => step !== undefined),
      );
      return { kind: 'done' };
    } catch (error) {
      for (const directory of created.reverse())
        await runtime.fs.rmdir(absolute(directory)).catch(() => undefined);
      if (error instanceof CommitFailedError) {
        return {
          kind: 'failed',
          message: error.message,
          unrestored: error.unrestored.map((path) => path.slice(root.length + 1)),
        };
      }
      return {
        kind: 'failed',
        message: error instanceof Error ? error.message : String(error),
        unrestored: [],
      };
    }
  });
  if (outcome.kind !== 'done') return outcome;
  // Every file is restored: a directory that cannot be removed (still holding what the checkpoints do not track,
  // ignored files; or any other failure) stays, and the rewind is done all the same.
  for (const directory of plan.removeDirectories)
    await runtime.fs.rmdir(absolute(directory)).catch(() => undefined);
  return outcome;
}

import { FileActions, type FileAction } from '../approval/file-actions.js';
import { reportAppliedChange } from '../observe/report-applied-change.js';
import type { ResolvedPath } from '../path/path-policy.js';
import { stillResolvesTo } from '../path/real-path.js';
import type { DiffDisplayBlock, ToolReturnValue } from '../result/tool-result.js';
import {
  FileLockLostError,
  type InvalidAnswerBrief,
  type PermissionBrief,
  type RejectedBrief,
} from '../errors.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { writtenBytes, writtenStateOf, type HistoryEntry, type WrittenState } from '../state/file-history.js';
import { snapshotOf, stampOfStats, type FileStamp } from '../state/file-stamp.js';
import { bytesEqual } from '../text/encoding-bytes.js';
import { commitFileSet, CommitFailedError, readPreviousState, type CommitStep } from './commit-file-set.js';
import { RUNTIME_DIRECTORIES } from './runtime-directories.js';
import { withFileSetLocks, type HeldFileSetLocks } from './file-set-locks.js';
import { askShapedApproval } from './ask-approval.js';
import { requestParts, reviewDiff, type ReviewedFile } from './reviewed-file.js';
import type { ShapedFile } from './shape-answer.js';

/**
 * One file of a change to several files at once: added, edited, deleted, or moved to `to` (its content possibly
 * changed on the way). `oldBytes` are what the change was computed from (`null` for an added file), `newBytes` what
 * it writes (`null` for a deleted file); the texts are `\n`-normalised, for the diff.
 */
export interface FileSetEntry {
  kind: 'add' | 'edit' | 'delete' | 'move';
  path: ResolvedPath;
  to?: ResolvedPath;
  oldBytes: Uint8Array | null;
  newBytes: Uint8Array | null;
  oldText: string;
  newText: string;
  /** Missing directories to create (absolute, shallowest first), part of the approved change. */
  createDirectories?: readonly string[];
}

/** A change to several files, approved once and written all together or not at all. */
export interface FileSetChange {
  /** The tool's name, e.g. `ApplyPatch`. */
  sender: string;
  /** The approval's description, e.g. `Apply patch to 2 files: a.ts (edit), b.ts (add)`. */
  description: string;
  entries: readonly FileSetEntry[];
}

/** What {@link applyFileSet} did. */
export type FileSetOutcome =
  /** A permission rule denied it, the user rejected it, or answered in a way that could not be applied: nothing was written. */
  | { kind: 'refused'; result: ToolReturnValue<RejectedBrief | InvalidAnswerBrief | PermissionBrief> }
  /** Files that changed while the approval was open (their paths as the model gave them): nothing was written. */
  | { kind: 'modified'; inputs: string[] }
  /** Writing failed: every file is back as it was, but those in `error.unrestored`. */
  | { kind: 'failed'; error: CommitFailedError }
  /**
   * Every approved file is changed. `entries` are what was written, one per entry of the change in its order: the
   * entry itself when written as proposed, a copy with the bytes and text written when the user's answer shaped it,
   * `null` when the user rejected all of it. `note` is what the model is told of the answer (`''`: nothing).
   */
  | {
      kind: 'written';
      display: DiffDisplayBlock[];
      action: FileAction;
      entries: readonly (FileSetEntry | null)[];
      note: string;
    };

/** The paths as the model gave them of the entries that read or write `realPath`. */
function inputsAt(change: FileSetChange, realPath: string): string[] {
  return change.entries
    .filter((entry) => entry.path.real === realPath || entry.to?.real === realPath)
    .map((entry) => entry.path.input);
}

/** Where an entry's new content goes: its destination when moved, else its own path. */
function destinationOf(entry: FileSetEntry): ResolvedPath {
  return entry.to ?? entry.path;
}

/** One entry as its approval shows it: its diff under its destination, an entry that changes no line as one empty block. */
function reviewEntry(runtime: ToolRuntime, entry: FileSetEntry): ReviewedFile {
  const path = destinationOf(entry).real;
  return {
    path,
    kind: entry.kind,
    oldBytes: entry.oldBytes,
    newBytes: entry.newBytes,
    view: reviewDiff(path, entry.oldText, entry.newText, runtime.diffBudgetMs, true),
    editable: entry.newBytes !== null,
  };
}

/** The entry the answer leaves of `entry`: itself, nothing, or what the user's answer made of it. */
function shapedEntry(entry: FileSetEntry, shaped: ShapedFile): FileSetEntry | null {
  if (shaped.how === 'proposed') return entry;
  if (shaped.how === 'left') return null;
  return { ...entry, newBytes: shaped.newBytes, newText: shaped.text ?? '' };
}

/**
 * Applies a change to several files as one (docs/writing.md#several-files-at-once): one approval showing every file's
 * diff (`EDIT`, or `EDIT_OUTSIDE` when any file is outside the workspace), after the permission rules judged every
 * file (docs/permissions.md); then, holding every file's locks, each
 * path must still resolve where it was approved and hold exactly the bytes the change was computed from (an added
 * or moved-to path must still be free); then one history unit, and {@link commitFileSet}. The read state then holds
 * what was written; observers are told of each file, outside the locks. The caller checked the read state before.
 */
export async function applyFileSet(
  runtime: ToolRuntime,
  change: FileSetChange,
  signal?: AbortSignal,
): Promise<FileSetOutcome> {
  const reviewed = change.entries.map((entry) => reviewEntry(runtime, entry));
  const outside = change.entries.some(
    (entry) => !entry.path.inside || (entry.to !== undefined && !entry.to.inside),
  );
  const action = outside ? FileActions.EDIT_OUTSIDE : FileActions.EDIT;
  // Every file is judged by the permission rules: a move both deletes its source and writes its destination.
  const targets = change.entries.flatMap((entry) =>
    [entry.path, ...(entry.to ? [entry.to] : [])].map(({ real, input }) => ({ real, input })),
  );
  const decision = await askShapedApproval(
    runtime,
    {
      sender: change.sender,
      action,
      description: change.description,
      display: reviewed.flatMap((file) => file.view.blocks),
      path: destinationOf(change.entries[0]!).real,
      ...requestParts(reviewed),
    },
    reviewed,
    targets,
    signal,
  );
  if (decision.kind === 'refused') return decision;
  signal?.throwIfAborted();
  const written = change.entries.map((entry, index) => shapedEntry(entry, decision.files[index]!));
  const display = decision.files.flatMap((shaped, index) =>
    shaped.how === 'proposed' ? reviewed[index]!.view.blocks : shaped.how === 'left' ? [] : shaped.display,
  );
  const approved: FileSetChange = {
    ...change,
    entries: written.filter((entry): entry is FileSetEntry => entry !== null),
  };

  const touched = approved.entries.flatMap((entry) => [
    entry.path.real,
    ...(entry.to ? [entry.to.real] : []),
  ]);
  // Lock files live beside their targets, so the directories of added and moved-to files come first; a patch that
  // ends without a write leaves none of them behind (docs/writing.md#one-change-at-a-time).
  const directories = await runtime
    .slot(RUNTIME_DIRECTORIES)
    .begin(approved.entries.flatMap((entry) => entry.createDirectories ?? []));
  let outcome: FileSetOutcome | undefined;
  try {
    outcome = await withFileSetLocks(
      runtime,
      touched,
      (locks) => checkAndCommit(runtime, approved, display, action, locks),
      directories.remake,
    );
  } finally {
    await directories.end(outcome?.kind === 'written');
  }
  if (outcome.kind === 'written') {
    outcome = { ...outcome, entries: written, note: decision.note };
    for (const entry of approved.entries) {
      if (entry.newBytes !== null) {
        await reportAppliedChange(runtime, {
          sender: change.sender,
          path: destinationOf(entry),
          oldBytes: entry.kind === 'move' ? null : entry.oldBytes,
          newBytes: entry.newBytes,
          signal,
        });
      }
      // A deleted file, and the old name of a moved one, are gone: observers that keep what the tools did are told.
      if (entry.kind === 'delete' || entry.kind === 'move') {
        await runtime.changeObservers.notifyRemoved({
          sender: change.sender,
          path: entry.path,
          oldBytes: entry.oldBytes!,
          signal,
        });
      }
    }
  }
  return outcome;
}

/** Paths of a change that resolved elsewhere right before its renames, as the model gave them. */
class SwappedSinceCheckError extends Error {
  constructor(readonly inputs: string[]) {
    super('a path resolves elsewhere since it was checked');
  }
}

/** The paths as the model gave them of the entries one of whose paths no longer resolves where it was checked. */
async function swappedInputs(runtime: ToolRuntime, change: FileSetChange): Promise<string[]> {
  const swapped = await Promise.all(
    change.entries.map(async (entry) => {
      const paths = [entry.path, ...(entry.to ? [entry.to] : [])];
      const moved = await Promise.all(paths.map((resolved) => stillResolvesTo(runtime.fs, resolved)));
      return moved.includes(false) ? [entry.path.input] : [];
    }),
  );
  return swapped.flat();
}

/**
 * The step under the locks: every file still where and what it was when the change was computed (an added or
 * moved-to path still free), then one history unit and the commit, then the read state of what was written.
 */
async function checkAndCommit(
  runtime: ToolRuntime,
  change: FileSetChange,
  display: DiffDisplayBlock[],
  action: FileAction,
  locks: HeldFileSetLocks,
): Promise<FileSetOutcome> {
  {
    const modified: string[] = [];
    const steps: CommitStep[] = [];
    // The stamp of each file the patch changes, as looked at here: the history keeps it with the file's saved version.
    const looked = new Map<string, FileStamp>();
    for (const entry of change.entries) {
      const resolvedPaths = [entry.path, ...(entry.to ? [entry.to] : [])];
      const moved = await Promise.all(
        resolvedPaths.map(async (resolved) => !(await stillResolvesTo(runtime.fs, resolved))),
      );
      const { state: source, stats: sourceStats } = await readPreviousState(runtime.fs, entry.path.real);
      const sourceHolds =
        entry.oldBytes === null
          ? source.kind === 'missing'
          : source.kind === 'file' && bytesEqual(source.bytes, entry.oldBytes);
      const destination = entry.to ? (await readPreviousState(runtime.fs, entry.to.real)).state : undefined;
      if (
        moved.includes(true) ||
        !sourceHolds ||
        (destination !== undefined && destination.kind !== 'missing')
      ) {
        modified.push(entry.path.input);
        continue;
      }
      const mode = source.kind === 'file' ? source.mode : 0o666 & ~0o022;
      const hardLinked = (sourceStats?.nlink ?? 1) > 1;
      if (sourceStats) looked.set(entry.path.real, stampOfStats(sourceStats));
      if (entry.kind === 'delete') steps.push({ kind: 'remove', path: entry.path.real, previous: source });
      else if (entry.kind === 'move') {
        steps.push({
          kind: 'write',
          path: entry.to!.real,
          bytes: entry.newBytes!,
          mode,
          previous: { kind: 'missing' },
        });
        steps.push({ kind: 'remove', path: entry.path.real, previous: source });
      } else {
        steps.push({
          kind: 'write',
          path: entry.path.real,
          bytes: entry.newBytes!,
          mode,
          inPlace: hardLinked,
          previous: source,
        });
      }
    }
    if (modified.length > 0) return { kind: 'modified', inputs: modified };
    let saved: HistoryEntry[] = [];
    // Once the commit has started, a failure may leave files changed (a rollback that could not restore one, or a
    // flush of a directory failing after every step): the versions of those files stay.
    let committing = false;

    try {
      saved =
        (await runtime.history?.saveUnit(
          runtime.fs,
          steps.map((step) => ({
            path: step.path,
            bytes: step.previous.kind === 'file' ? step.previous.bytes : null,
            stamp: looked.get(step.path),
          })),
          { runtime },
        )) ?? [];
      // A writer suspended past a lock's stale time has lost it, and another may have written that file since it was
      // looked at: nothing is written then, as WriteFile does.
      await locks.verify();
      committing = true;
      await commitFileSet(runtime.fs, steps, {
        // The looks above and the temp files take a while (round trips on a remote host): a directory on the way may
        // have been swapped for a link meanwhile. Every path is resolved again, at once, before anything is renamed.
        beforeRenames: async () => {
          const swapped = await swappedInputs(runtime, change);
          if (swapped.length > 0) throw new SwappedSinceCheckError(swapped);
        },
      });
    } catch (error) {
      // A file the rollback restored was never changed; one it could not restore, or every file of a commit that ended
      // and then failed to flush a directory, may hold what the patch meant to leave.
      const restored = (entry: HistoryEntry) =>
        error instanceof CommitFailedError && !error.unrestored.includes(entry.path);
      await runtime.history?.settleFailed(
        saved,
        (entry) => committing && !restored(entry),
        (entry) => {
          const step = steps.find((each) => each.path === entry.path);
          return step?.kind === 'remove'
            ? 'missing'
            : step?.kind === 'write'
              ? writtenBytes(step.bytes)
              : undefined;
        },
      );
      if (error instanceof CommitFailedError && error.cause instanceof SwappedSinceCheckError)
        return { kind: 'modified', inputs: error.cause.inputs };
      if (error instanceof CommitFailedError) return { kind: 'failed', error };
      if (error instanceof FileLockLostError)
        return { kind: 'modified', inputs: inputsAt(change, error.filePath) };
      throw error;
    }
    // What the commit left at each path, for the history's undo: a removed path holds nothing.
    const left = new Map<string, WrittenState | undefined>();
    for (const entry of change.entries) {
      if (entry.kind === 'delete' || entry.kind === 'move') {
        runtime.fileState.forget(entry.path.real);
        left.set(entry.path.real, 'missing');
      }
      if (entry.newBytes === null) continue;
      const written = destinationOf(entry).real;
      // Past the commit every file is written: a stat that fails now (a dropped connection) must not turn that
      // into a failure. Its read state is forgotten instead: the next edit reads the file again.
      const stats = await runtime.fs.stat(written).catch(() => undefined);
      const stamp = stats && snapshotOf(entry.newBytes, stats);
      if (stamp === undefined) runtime.fileState.forget(written);
      else runtime.fileState.recordWrite(written, stamp);
      left.set(written, stamp ? writtenStateOf(stamp) : writtenBytes(entry.newBytes));
    }
    for (const entry of saved) runtime.history?.recordWritten(entry, left.get(entry.path));
    return { kind: 'written', display, action, entries: change.entries, note: '' };
  }
}

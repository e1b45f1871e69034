import { FileActions } from '../approval/file-actions.js';
import { FileLockLostError } from '../errors.js';
import type { OpenFile } from '../fs/file-system.js';
import { openRegularFile } from '../fs/regular-file.js';
import { stillResolvesTo } from '../path/real-path.js';
import type { ResolvedPath } from '../path/path-policy.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { writtenStateOf, type HistoryEntry } from '../state/file-history.js';
import { sameStamp, stampOf, stampOfHandle, type FileStamp } from '../state/file-stamp.js';
import { readStateError } from '../state/read-state-error.js';
import { quotedPath } from '../text/escape-for-display.js';
import type { ApplyOutcome } from './apply-file-change.js';
import { askShapedApproval } from './ask-approval.js';
import { writeFileAtomic } from './atomic-write.js';
import { withFileLock, type HeldFileLock } from './file-lock.js';
import { LOCK_SIGHTINGS } from './lock-sightings.js';
import { runtimeLockKey } from './runtime-lock-key.js';

/**
 * Thrown from the commit check when the file changed while it was copied, or its path no longer resolves where it
 * was approved (turned into `File modified`).
 */
class ChangedDuringCopyError extends Error {}

/**
 * A change of a file too large to hold in memory (docs/writing.md#files-too-large-to-hold): the tool has scanned the
 * file, taken its stamp before the scan, and built the diff of the changed regions; the new content is written by
 * streaming the old one through `writeTo`.
 */
export interface StreamedFileChange {
  /** The tool's name (sent with the approval request). */
  sender: string;
  /** Words the approval description. */
  verb: 'Edit';
  /** The target, as the path policy resolved it. */
  path: ResolvedPath;
  /**
   * The stamp of the file the change was computed from ({@link stampOfHandle} on the open file that was scanned,
   * taken before the scan): under the lock the file must still have it. A file over 64 MiB has no hash where the
   * backend has change times and inodes, so its size, times, inode and device decide.
   */
  oldStamp: FileStamp;
  /** The diff blocks of the changed regions, with the file's line numbers (shown for approval and returned). */
  display: DiffDisplayBlock[];
  /** Bytes the new content has. */
  newSize: number;
  /** Writes the new content into `target` from offset 0, reading the old content from `source` (the locked file). */
  writeTo(source: OpenFile, target: OpenFile): Promise<void>;
  /** Whether read-before-write applies: the session's read state must be `ok` before the approval and after it. */
  checkReadState: boolean;
}

/** What {@link applyStreamedChange} did: as `applyFileChange`, without the bytes, which are never all in memory. */
export type StreamedOutcome =
  | Extract<ApplyOutcome, { kind: 'refused' }>
  | Omit<Extract<ApplyOutcome, { kind: 'written' }>, 'newBytes' | 'shaped'>;

/**
 * Applies a {@link StreamedFileChange} with the guarantees of `applyFileChange`: read state → permission rules and approval → under the
 * runtime's lock and the file lock, the path still resolving to the approved real path, the file still carrying
 * `oldStamp` and the read state still ok → history (`saveFromHandle`, never the whole file in memory when the
 * history spills to a directory) → atomic write through a temp file, streamed → the new read state. The runtime's
 * change observers are not told: they are given whole files, which is what this path avoids. The change is taken
 * whole: its request offers no hunks and no content to edit (docs/approval.md#per-hunk-answers).
 */
export async function applyStreamedChange(
  runtime: ToolRuntime,
  change: StreamedFileChange,
  signal?: AbortSignal,
): Promise<StreamedOutcome> {
  const { path: target } = change;
  const realPath = target.real;
  if (change.checkReadState) {
    const status = runtime.fileState.checkStamp(realPath, change.oldStamp);
    if (status !== 'ok') return { kind: 'refused', result: readStateError(target.input, status) };
  }
  const action = target.inside ? FileActions.EDIT : FileActions.EDIT_OUTSIDE;
  const decision = await askShapedApproval(
    runtime,
    {
      sender: change.sender,
      action,
      description: `${change.verb} file ${quotedPath(realPath)}`,
      display: change.display,
      path: realPath,
    },
    [],
    [{ real: realPath, input: target.input }],
    signal,
  );
  if (decision.kind === 'refused') return decision;
  signal?.throwIfAborted();

  const modified = { kind: 'refused', result: readStateError(target.input, 'modified') } as const;
  const { fs } = runtime;
  const sightings = runtime.slot(LOCK_SIGHTINGS);
  const underFileLock = <T>(task: (lock: HeldFileLock) => Promise<T>) =>
    withFileLock(fs, realPath, task, { sightings });
  return runtime.locks.run(await runtimeLockKey(fs, realPath), () =>
    underFileLock(async (lock) => {
      // The write must land exactly where the policy approved, never wherever a swapped-in symlink leads now.
      if (!(await stillResolvesTo(fs, target))) return modified;
      const opened = await openRegularFile(fs, realPath);
      if (typeof opened === 'string') return modified;
      let saved: HistoryEntry | undefined;
      // Past `beforeCommit` the file may be changed even if the write then fails: its version is kept then.
      let committing = false;
      try {
        const look = await stampOfHandle(opened.handle);
        if (!sameStamp(look, change.oldStamp) || look.size !== change.oldStamp.size) return modified;
        if (change.checkReadState) {
          const status = runtime.fileState.checkStamp(realPath, look);
          if (status !== 'ok') return { kind: 'refused', result: readStateError(target.input, status) };
        }
        try {
          await lock.verify();
          saved = await runtime.history?.saveFromHandle(fs, realPath, opened.handle, look.size, {
            runtime,
            stamp: look,
          });
          await writeFileAtomic(
            fs,
            realPath,
            { size: change.newSize, writeTo: (temp) => change.writeTo(opened.handle, temp) },
            {
              signal,
              beforeCommit: async () => {
                // A writer that ignores the lock may have changed the file while history and the copy read it: the
                // new content would then mix two versions.
                if (!sameStamp(await stampOfHandle(opened.handle), look)) throw new ChangedDuringCopyError();
                // The copy takes a while (seconds for a large file over SSH), and a directory on the way may have
                // been swapped for a link meanwhile: the path is resolved again, beside the look at the lock.
                const [resolves] = await Promise.all([stillResolvesTo(fs, target), lock.verify()]);
                if (!resolves) throw new ChangedDuringCopyError();
                committing = true;
              },
              afterCommit: (landed) => lock.committed(landed),
            },
          );
        } catch (error) {
          if (saved)
            await runtime.history?.settleFailed(
              [saved],
              () => committing,
              () => undefined,
            );
          if (error instanceof FileLockLostError || error instanceof ChangedDuringCopyError) return modified;
          throw error;
        }
      } finally {
        await opened.handle.close();
      }
      const written = await stampOf(fs, realPath).catch(() => undefined);
      if (typeof written === 'object') runtime.fileState.recordWrite(realPath, written);
      else runtime.fileState.forget(realPath);
      if (saved)
        runtime.history?.recordWritten(
          saved,
          typeof written === 'object' ? writtenStateOf(written) : undefined,
        );
      return {
        kind: 'written',
        display: change.display,
        action,
        created: false,
        bytes: change.newSize,
        createdDirectories: [],
        note: decision.note,
      } as const;
    }),
  );
}

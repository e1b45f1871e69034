import { FileActions, type FileAction } from '../approval/file-actions.js';
import type { LineDiff } from '../diff/line-diff.js';
import type { DiffView } from '../diff/build-diff-blocks.js';
import type { ResolvedPath } from '../path/path-policy.js';
import type { DiffDisplayBlock, ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { writtenBytes, writtenStateOf, type HistoryEntry } from '../state/file-history.js';
import { stampNeedsHash, stampOfStats, type FileStamp } from '../state/file-stamp.js';
import { CONTENT_HASH_LIMIT_BYTES, hashBytes } from '../state/content-hash.js';
import { readStateError } from '../state/read-state-error.js';
import { writeFileAtomic } from './atomic-write.js';
import { resolveLinkTarget } from './resolve-link-target.js';
import { withFileLock, type HeldFileLock } from './file-lock.js';
import { LOCK_SIGHTINGS } from './lock-sightings.js';
import { runtimeLockKey } from './runtime-lock-key.js';
import {
  FileLockLostError,
  type PermissionBrief,
  type InvalidAnswerBrief,
  type ReadStateBrief,
  type RejectedBrief,
} from '../errors.js';
import { RUNTIME_DIRECTORIES, type ChangeDirectories } from './runtime-directories.js';
import { quotedPath } from '../text/escape-for-display.js';
import type { FileSystem } from '../fs/file-system.js';
import { openRegularFile, type NotRegularFile } from '../fs/regular-file.js';
import { handleHoldsExactly } from '../fs/read-bytes.js';
import { bytesEqual } from '../text/encoding-bytes.js';
import { stillResolvesTo } from '../path/real-path.js';
import { askShapedApproval } from './ask-approval.js';
import { requestParts, reviewDiff, type ReviewedFile } from './reviewed-file.js';
import { reportAppliedChange } from '../observe/report-applied-change.js';
import { APPENDS_IN_FLIGHT, landedAppendView, type AppendInFlight } from './appends-in-flight.js';

/** A change a writing tool has computed and wants applied (the shared tail of WriteFile and StrReplaceFile). */
export interface FileChange {
  /** The tool's name, e.g. `WriteFile` (sent with the approval request). */
  sender: string;
  /** Words the approval description: ``Write file `{real}` `` or ``Edit file `{real}` ``. */
  verb: 'Write' | 'Edit';
  /** The target, as the path policy resolved it. */
  path: ResolvedPath;
  /** The bytes the change was computed from; `null` when the file does not exist yet. */
  oldBytes: Uint8Array | null;
  /**
   * The stamp of `oldBytes` as the tool read them (`readStampedFile`), when it took one: the read-state check before
   * the approval is then judged on it, and the look under the lock reuses its hash, so `oldBytes` are never read or
   * hashed again. Without it, both read and hash the file themselves.
   */
  oldStamp?: FileStamp;
  /** The bytes to write. */
  newBytes: Uint8Array;
  /** The old content, '\n'-normalised, for the diff (`''` for a new file). */
  oldText: string;
  /** The new content, '\n'-normalised, for the diff. */
  newText: string;
  /** The line diff of `oldText` and `newText`, when the tool needs it too (its snippet): searched once for both. */
  lines?: LineDiff;
  /**
   * The change appends: `newBytes` are `oldBytes` followed by the bytes it adds. Written as proposed, it may then land
   * after what the runtime's other appends to the file wrote once it was approved, instead of being refused as
   * modified (docs/write-file.md#appends-side-by-side).
   */
  appends?: boolean;
  /** Missing directories to create before writing (absolute, shallowest first); part of the approved change. */
  createDirectories?: readonly string[];
  /**
   * The bytes to write when the user approves only some hunks and the diff's new side becomes `text`, for a tool
   * whose `oldText` and `newText` are not the file's own text (NotebookEdit shows the cell): by default the approved
   * hunks' lines replace theirs in `oldBytes`, every other byte kept (docs/approval.md#per-hunk-answers).
   */
  bytesForText?: (text: string) => Uint8Array;
  /**
   * Whether docs/read-state.md read-before-write applies to this change: then the session's read state must be `ok` both
   * before the approval is asked and again after it, right before writing. (Whatever this says, the file must still
   * hold `oldBytes` when the write happens.)
   */
  checkReadState: boolean;
}

/** What {@link applyFileChange} did; the tool words the success message. */
export type ApplyOutcome =
  /** The file would stay byte-identical: nothing asked, nothing written. */
  | { kind: 'unchanged' }
  /**
   * The change was refused (denied by a rule, rejected by the user, an answer that could not be applied, not read, or
   * modified meanwhile); return `result` as is.
   */
  | {
      kind: 'refused';
      result: ToolReturnValue<ReadStateBrief | RejectedBrief | InvalidAnswerBrief | PermissionBrief>;
    }
  /** The change is on disk. */
  | {
      kind: 'written';
      /** The diff blocks of what was written. */
      display: DiffDisplayBlock[];
      /** The bytes written: the change's, unless the user's answer shaped them. */
      newBytes: Uint8Array;
      /**
       * `hashBytes(newBytes)`, when the read state recorded for them carries it (a file up to 64 MiB): the tool
       * keeps their text under it without hashing them again.
       */
      newHash?: string;
      /**
       * How the user's answer shaped the change (some hunks only, or the user's content), with the written file's
       * `\n`-normalised text (`undefined`: not text); absent when the change was written as proposed.
       */
      shaped?: { how: 'hunks' | 'content'; text: string | undefined };
      /** What the model is told of the user's answer, on lines after the tool's message (`''`: nothing). */
      note: string;
      /** The approval action that was asked. */
      action: FileAction;
      /** Whether the file did not exist before. */
      created: boolean;
      /** Size of the file after the write, in bytes. */
      bytes: number;
      /** The directories that were created (absolute, shallowest first). */
      createdDirectories: string[];
      /**
       * Set when an append landed after what the runtime's other appends wrote since it was approved: the file as
       * found (`newBytes` is what was written), and the diff of the two, which `display` shows.
       */
      landed?: { oldBytes: Uint8Array; view: DiffView };
    };

/** What the approved answer writes, and what the result says of it. */
type Written = Pick<Extract<ApplyOutcome, { kind: 'written' }>, 'newBytes' | 'display' | 'shaped' | 'note'>;

/** The file as the lock holder finds it, seen through one descriptor. */
interface LockedLook {
  /** Whether it holds exactly the bytes the change was computed from (for a new file: nothing is there). */
  holdsOld: boolean;
  /** Its stamp, hashed when `hashed` was asked and it holds the old bytes; why there is none otherwise. */
  stamp: FileStamp | NotRegularFile;
}

// The stat is taken before the bytes are read, on the same open file, so the stamp can only be older than the bytes:
// a change in between makes the read state disagree instead of slipping through. The file is compared with
// `oldBytes` a chunk at a time, up to one byte past their end (enough to see that it grew), even when its stats are
// unchanged: a write through a shared memory mapping moves neither time (docs/read-state.md). The hash is only wanted
// of bytes equal to `oldBytes`, so `oldHash` (theirs, when the caller has it) is that hash exactly and saves hashing
// them again.
async function lookUnderLock(
  fs: FileSystem,
  realPath: string,
  oldBytes: Uint8Array | null,
  hashed: boolean,
  oldHash: string | undefined,
): Promise<LockedLook> {
  const opened = await openRegularFile(fs, realPath);
  if (typeof opened === 'string')
    return { holdsOld: oldBytes === null && opened === 'missing', stamp: opened };
  try {
    const stats = opened.stats;
    if (oldBytes === null) return { holdsOld: false, stamp: stampOfStats(stats) };
    const holdsOld = stats.size === oldBytes.length && (await handleHoldsExactly(opened.handle, oldBytes));
    const hash = hashed && holdsOld && stampNeedsHash(stats) ? (oldHash ?? hashBytes(oldBytes)) : undefined;
    return { holdsOld, stamp: stampOfStats(stats, hash) };
  } finally {
    await opened.handle.close();
  }
}

/**
 * Applies a computed change (docs/approval.md, docs/read-state.md, docs/writing.md): no-op check → read state (when it
 * applies) → diff blocks and hunks → the permission rules (docs/permissions.md), then approval (`EDIT` inside the
 * workspace, `EDIT_OUTSIDE` outside), whose answer may keep only some hunks or give the user's own content (an answer
 * that cannot be applied is asked again) → then, under the runtime's lock on the real path: the path still resolving
 * to the approved real path → directories → file lock: the file must still hold `oldBytes` and the read state still
 * be ok (one look at the file) → history → atomic write of what was approved → the new read state; then, outside the
 * locks, the runtime's change observers are told (docs/change-observers.md), and what they add joins the running tool
 * call's result. I/O failures are thrown; the tool turns them into its generic failure.
 */
export async function applyFileChange(
  runtime: ToolRuntime,
  change: FileChange,
  signal?: AbortSignal,
): Promise<ApplyOutcome> {
  const { path: target, oldBytes, newBytes } = change;
  const realPath = target.real;
  if (oldBytes !== null && bytesEqual(oldBytes, newBytes)) return { kind: 'unchanged' };

  const mustCheckReadState = change.checkReadState && oldBytes !== null;
  if (mustCheckReadState) {
    // With the stamp of `oldBytes`, this check judges what the change was computed from, without a second read and
    // hash of the file. A change on disk since that read is not missed: the look under the file lock below is the
    // authoritative check, and it compares the file's bytes with `oldBytes` exactly. This one only spares the user
    // an approval for a change that is refused anyway.
    const status = change.oldStamp
      ? runtime.fileState.checkStamp(realPath, change.oldStamp)
      : await runtime.fileState.check(realPath);
    if (status !== 'ok') return { kind: 'refused', result: readStateError(target.input, status) };
  }

  // Creating an empty file changes no line, but the creation is the change: it is shown as one empty block.
  const reviewed: ReviewedFile = {
    path: realPath,
    kind: oldBytes === null ? 'add' : 'edit',
    oldBytes,
    newBytes,
    view: reviewDiff(
      realPath,
      change.oldText,
      change.newText,
      runtime.diffBudgetMs,
      oldBytes === null,
      change.lines,
    ),
    editable: true,
    ...(change.bytesForText ? { bytesForText: change.bytesForText } : {}),
  };
  const action = target.inside ? FileActions.EDIT : FileActions.EDIT_OUTSIDE;
  const decision = await askShapedApproval(
    runtime,
    {
      sender: change.sender,
      action,
      description: `${change.verb} file ${quotedPath(realPath)}`,
      display: reviewed.view.blocks,
      path: realPath,
      ...requestParts([reviewed]),
    },
    [reviewed],
    [{ real: realPath, input: target.input }],
    signal,
  );
  if (decision.kind === 'refused') return decision;
  signal?.throwIfAborted();
  const shaped = decision.files[0]!;
  const written: Written =
    shaped.how === 'hunks' || shaped.how === 'content'
      ? {
          // Only a deleted file has no new bytes, and a one-file change never deletes.
          newBytes: shaped.newBytes!,
          display: shaped.display,
          shaped: { how: shaped.how, text: shaped.text },
          note: decision.note,
        }
      : { newBytes, display: reviewed.view.blocks, note: decision.note };
  // Approved now: from here on, what the runtime's other appends add to the file may come before this one. Only an
  // append written as proposed; an answer that shaped it (some hunks, the user's content) makes a new whole file.
  const append =
    change.appends && shaped.how === 'proposed'
      ? runtime.slot(APPENDS_IN_FLIGHT).start(realPath, oldBytes, newBytes)
      : undefined;
  let applied: ApplyOutcome;
  try {
    applied = await writeUnderLocks(runtime, change, written, append, action, signal);
  } finally {
    append?.end();
  }
  // Outside the locks: observers (diagnostics, a formatter) may take their time without holding up other writers.
  if (applied.kind === 'written') {
    await reportAppliedChange(runtime, {
      sender: change.sender,
      path: target,
      oldBytes: applied.landed?.oldBytes ?? oldBytes,
      newBytes: applied.newBytes,
      signal,
    });
  }
  return applied;
}

/**
 * The approved change written under the runtime's lock on its real path: the path still resolving where it was
 * approved, its directories made, then {@link writeLocked}; the directories made are removed again when nothing was
 * written, once no other change of the runtime is being written (docs/writing.md#one-change-at-a-time).
 */
async function writeUnderLocks(
  runtime: ToolRuntime,
  change: FileChange,
  written: Written,
  append: AppendInFlight | undefined,
  action: FileAction,
  signal: AbortSignal | undefined,
): Promise<ApplyOutcome> {
  const target = change.path;
  const lockKey = await runtimeLockKey(runtime.fs, target.real);
  return runtime.locks.run(lockKey, async (): Promise<ApplyOutcome> => {
    // A directory on the way, or the file itself, may have been swapped for a symlink meanwhile: the write must
    // land exactly where the policy approved, never wherever the path leads now.
    if (!(await stillResolvesTo(runtime.fs, target))) {
      return { kind: 'refused', result: readStateError(target.input, 'modified') };
    }
    // The lock file lives beside the target, so its directory must exist first.
    const directories = await runtime.slot(RUNTIME_DIRECTORIES).begin(change.createDirectories ?? []);
    // A change that ends without a write (refused, or failed) leaves no directory of its own behind.
    let outcome: ApplyOutcome | undefined;
    try {
      outcome = await writeLocked(runtime, change, written, append, action, directories, signal);
      return outcome;
    } finally {
      await directories.end(outcome?.kind === 'written');
    }
  });
}

/** The path resolved elsewhere right before the commit: nothing is written. */
class SwappedSinceCheckError extends Error {}

/**
 * The last step of {@link applyFileChange}: under the file lock, the check that the file still holds `oldBytes` and
 * (when it applies) that the session's read state is still ok, then the write, as one step. An `append` checks for
 * what the runtime's other appends wrote to the file once it was approved as well, and lands after that.
 */
async function writeLocked(
  runtime: ToolRuntime,
  change: FileChange,
  written: Written,
  append: AppendInFlight | undefined,
  action: FileAction,
  directories: ChangeDirectories,
  signal: AbortSignal | undefined,
): Promise<ApplyOutcome> {
  const { path: target } = change;
  const realPath = target.real;
  const { fs } = runtime;
  // The runtime's lock orders this session's calls; the file lock keeps other runtimes and processes out
  // between the check below and the write.
  const underLock = async (lock: HeldFileLock): Promise<ApplyOutcome> => {
    const modified: ApplyOutcome = { kind: 'refused', result: readStateError(target.input, 'modified') };
    if (!(await stillResolvesTo(fs, target))) return modified;
    // The approval may have taken minutes, and other runtimes and processes write too: the file must still be what
    // the change was computed from, and (read-before-write) what the session read. Both are judged here, under the
    // file lock, on one look at the file, so nothing can slip in between the check and the write.
    const mustCheckReadState = change.checkReadState && change.oldBytes !== null;
    // What the file must hold: the bytes the change was computed from, followed, for an append, by what the
    // runtime's other appends wrote to the file once it was approved (it then lands after them, the same bytes added).
    const landing = append?.landing();
    const oldBytes = landing ? landing.oldBytes : change.oldBytes;
    const newBytes = landing ? landing.newBytes : written.newBytes;
    // Where the write lands (a link followed) and the mode it keeps are asked beside the look, under the same lock:
    // one round trip less on a remote host. Only a look that finds the old bytes goes on to use it.
    const linkTarget = resolveLinkTarget(fs, realPath);
    linkTarget.catch(() => undefined);
    const look = await lookUnderLock(
      fs,
      realPath,
      oldBytes,
      mustCheckReadState,
      landing ? undefined : change.oldStamp?.hash,
    );
    if (!look.holdsOld) return modified;
    const landedView =
      landing && landedAppendView(realPath, landing.oldBytes, newBytes, runtime.diffBudgetMs);
    if (landing && !landedView) return modified;
    if (mustCheckReadState) {
      const status = runtime.fileState.checkStamp(realPath, look.stamp);
      if (status !== 'ok') return { kind: 'refused', result: readStateError(target.input, status) };
    }
    // The new read state carries the new bytes' hash when they are small enough to hash: it is worked out while the
    // disk flushes them, so that it fills that time instead of following it.
    let hashed: string | undefined;
    const newHash = () =>
      newBytes.length <= CONTENT_HASH_LIMIT_BYTES ? (hashed ??= hashBytes(newBytes)) : undefined;
    let saved: HistoryEntry | undefined;
    // Past `beforeCommit` the file may be changed (renamed over, or rewritten in place for hard links) even if the
    // write then fails: its saved version is kept then, with what the change meant to leave.
    let committing = false;
    // A writer suspended past the lock's stale time has lost it, and another may have written meanwhile: it
    // must not write what it computed from the older content. Asked once, last thing before the new content
    // replaces the old (each ask reads the lock file: round trips on a remote host).
    try {
      await writeFileAtomic(fs, realPath, newBytes, {
        signal,
        linkTarget,
        // The look above found exactly these bytes: a failed rewrite in place writes them back.
        ...(oldBytes === null ? {} : { previous: oldBytes }),
        whileFlushing: () => void newHash(),
        beforeCommit: async () => {
          const stamp = typeof look.stamp === 'object' ? look.stamp : undefined;
          saved = await runtime.history?.save(fs, realPath, oldBytes, { runtime, stamp });
          // The look and the temp file take a while (round trips on a remote host), and a directory on the way may
          // have been swapped for a link meanwhile: the path is resolved again, beside the look at the lock.
          const [resolves] = await Promise.all([stillResolvesTo(fs, target), lock.verify()]);
          if (!resolves) throw new SwappedSinceCheckError();
          committing = true;
        },
        afterCommit: (landed) => lock.committed(landed),
      });
    } catch (error) {
      if (saved)
        await runtime.history?.settleFailed(
          [saved],
          () => committing,
          () => writtenBytes(newBytes, newHash()),
        );
      if (error instanceof FileLockLostError || error instanceof SwappedSinceCheckError) return modified;
      throw error;
    }
    // The new content is in place: a stat that fails now (a dropped connection) must not turn that into a
    // failure. The read state is forgotten instead: the next edit reads the file again.
    const stats = await fs.stat(realPath).catch(() => undefined);
    if (stats === undefined) runtime.fileState.forget(realPath);
    const stamp =
      stats && stampOfStats(stats, stampNeedsHash(stats) ? (newHash() ?? hashBytes(newBytes)) : undefined);
    if (stamp) runtime.fileState.recordWrite(realPath, stamp);
    if (saved)
      runtime.history?.recordWritten(
        saved,
        writtenBytes(newBytes, newHash()) ?? (stamp && writtenStateOf(stamp)),
      );
    if (append) runtime.slot(APPENDS_IN_FLIGHT).written(realPath, append.added);
    return {
      kind: 'written',
      ...written,
      ...(landing && landedView
        ? { newBytes, display: landedView.blocks, landed: { oldBytes: landing.oldBytes, view: landedView } }
        : {}),
      ...(stamp?.hash === undefined ? {} : { newHash: stamp.hash }),
      action,
      created: oldBytes === null,
      bytes: newBytes.length,
      createdDirectories: [...directories.created],
    };
  };
  // Until `lock.verify()`, right before the commit, the task reads and writes a temp file of its own: nothing another
  // writer could see.
  return withFileLock(fs, realPath, underLock, {
    sightings: runtime.slot(LOCK_SIGHTINGS),
    readsBeforeVerify: true,
    // The directory may have been removed by a change that wrote nothing, after this one found it there.
    remakeDirectory: () => directories.remake(realPath),
  });
}

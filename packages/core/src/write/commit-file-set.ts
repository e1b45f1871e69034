import type { FileStats, FileSystem } from '../fs/file-system.js';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { errnoError, hasErrno, isMissingPathError } from '../fs/errno.js';
import { notRegularFileErrnoText } from '../errors.js';
import { pathApiFor } from '../path/platform-path.js';
import { overwriteBytesInPlace, writeAllBytes, writeTempBeside } from './atomic-write.js';
import { flushRenames, renameTempOver, RenameOutcomeUnknownError } from './rename-temp.js';
import { buriedIn, removeGrave, stopLateMove } from './grave.js';
import { atomicTempName } from './temp-files.js';

/** What was at a path before a commit, so that a failed commit can put it back exactly. */
export type PreviousState =
  | { kind: 'missing' }
  | { kind: 'file'; bytes: Uint8Array; mode: number }
  | { kind: 'symlink'; target: string };

/**
 * One step of a {@link commitFileSet}: a file written with `bytes` and `mode` (rewritten in place when `inPlace`: a
 * file with several hard links keeps them shared), a symbolic link holding `target` put at a path (a checkpoint's
 * rewind restores links as links), or a path removed. `previous` is what the path holds before.
 */
export type CommitStep =
  | {
      kind: 'write';
      path: string;
      bytes: Uint8Array;
      mode: number;
      inPlace?: boolean;
      previous: PreviousState;
    }
  | { kind: 'symlink'; path: string; target: string; previous: PreviousState }
  | { kind: 'remove'; path: string; previous: PreviousState };

/** A commit that failed: every step already done was undone, except at `unrestored` (when undoing failed too). */
export class CommitFailedError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly unrestored: readonly string[],
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'CommitFailedError';
  }
}

/**
 * What is at `file` now, as a failed commit would put it back: nothing, a symbolic link (a final link is not
 * followed), or a file's bytes and permission bits, with the stats of the descriptor they were read from.
 */
export async function readPreviousState(
  fs: FileSystem,
  file: string,
): Promise<{ state: PreviousState; stats?: FileStats }> {
  let stats: FileStats;
  try {
    stats = await fs.lstat(file);
  } catch (error) {
    if (isMissingPathError(error)) return { state: { kind: 'missing' } };
    throw error;
  }
  if (stats.isSymbolicLink()) return { state: { kind: 'symlink', target: await fs.readlink(file) } };
  // A FIFO, a socket or a device cannot be read back nor put back: refused as the atomic write refuses it, on
  // every backend alike (read, a FIFO fails with ESPIPE on the local disk and EAGAIN over SSH).
  if (!stats.isFile()) throw errnoError('EISDIR', notRegularFileErrnoText(file));
  const handle = await fs.open(file, 'read');
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw errnoError('EISDIR', notRegularFileErrnoText(file));
    // One byte more than the size: a file that grew since the stat is read whole.
    const bytes = await readHandleUpTo(handle, Number.MAX_SAFE_INTEGER, opened.size + 1);
    return { state: { kind: 'file', bytes, mode: opened.mode & 0o7777 }, stats: opened };
  } finally {
    await handle.close();
  }
}

/** Writes `bytes` into a new temp file beside `target`, flushed, with `mode`; returns its path. */
function writeTemp(fs: FileSystem, target: string, bytes: Uint8Array, mode: number): Promise<string> {
  return writeTempBeside(fs, target, (file) => writeAllBytes(file, bytes), { mode });
}

/** A temp name beside `path`, as only this process knows it. */
function tempBeside(fs: FileSystem, path: string): string {
  const paths = pathApiFor(fs.platform);
  return paths.join(paths.dirname(path), atomicTempName(paths.basename(path)));
}

/** Makes a symbolic link holding `target` under a temp name beside `path`; returns its path. */
async function linkTemp(fs: FileSystem, path: string, target: string): Promise<string> {
  const tempPath = tempBeside(fs, path);
  try {
    await fs.symlink(target, tempPath);
  } catch (error) {
    // As a temp file's create (writeTempBeside): a dropped connection may have lost the answer of a link that was
    // made, and the name is this process's alone.
    if (hasErrno(error, 'ECONNRESET')) await fs.unlink(tempPath).catch(() => undefined);
    throw error;
  }
  return tempPath;
}

/**
 * Renames `path`, a file a commit removes, into `grave`, an empty directory made beside it under a temp name, whence it
 * is removed. A dropped connection may leave a request in a server stopped on its way out, which makes it when it
 * wakes: a late removal of the path itself would take the file a failed commit put back there. A late rename into
 * `grave` is stopped instead ({@link stopLateMove}).
 */
async function moveIntoGrave(fs: FileSystem, path: string, grave: string): Promise<void> {
  try {
    await fs.rename(path, buriedIn(fs, grave));
  } catch (error) {
    if (!hasErrno(error, 'ECONNRESET') || !(await stopLateMove(fs, grave))) throw error;
  }
}

/** Puts back what a path held before (docs/writing.md#several-files-at-once). */
async function restore(
  fs: FileSystem,
  target: string,
  previous: PreviousState,
  inPlace: boolean,
): Promise<void> {
  if (previous.kind === 'file' && inPlace)
    return overwriteBytesInPlace(fs, target, previous.bytes, previous.mode);
  if (previous.kind === 'file') {
    await renameTempOver(fs, await writeTemp(fs, target, previous.bytes, previous.mode), target);
    return;
  }
  try {
    await fs.unlink(target);
  } catch (error) {
    if (!hasErrno(error, 'ENOENT')) throw error;
  }
  if (previous.kind === 'symlink') await fs.symlink(previous.target, target);
}

/** Temp files written at once: each is flushed, and a flush waits for the disk (milliseconds), not the processor. */
const TEMP_WRITES_AT_ONCE = 16;

/**
 * Writes the temp file (or temp link) of every step that has one into `temps`, {@link TEMP_WRITES_AT_ONCE} at a time.
 * On a failure the ones under way are waited for (so `temps` names every temp file made), then the error is thrown.
 */
async function prepareTemps(
  fs: FileSystem,
  steps: readonly CommitStep[],
  temps: Map<number, string>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < steps.length && failure === undefined) {
      const index = next++;
      const step = steps[index]!;
      try {
        if (step.kind === 'write' && !step.inPlace) {
          temps.set(index, await writeTemp(fs, step.path, step.bytes, step.mode));
        } else if (step.kind === 'symlink') temps.set(index, await linkTemp(fs, step.path, step.target));
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(TEMP_WRITES_AT_ONCE, steps.length) }, lane));
  if (failure) throw failure.error;
}

/** What a {@link commitFileSet} asks its caller on the way. */
export interface CommitOptions {
  /**
   * Called once every temp file is written, right before the first rename: the caller's last look (a directory on the
   * way swapped for a link while the temp files were written would take the renames out of the workspace). What it
   * throws fails the commit with nothing changed: the temp files are removed, and {@link CommitFailedError} has it as
   * its `cause`.
   */
  beforeRenames?: () => Promise<void>;
}

/**
 * Changes several files as one unit (docs/writing.md#several-files-at-once): every new content is first written to a
 * temp file beside its target and flushed (a new symbolic link is made under a temp name likewise), several at a
 * time; only when all are written are they renamed into place (and the removals made), in the order given. Should any step fail, every step already done is undone from `previous`, byte for byte,
 * the temp files are removed, and {@link CommitFailedError} is thrown. A process killed midway leaves each file
 * either all old or all new (each rename is atomic), never a mix within one file. The caller holds the locks.
 */
export async function commitFileSet(
  fs: FileSystem,
  steps: readonly CommitStep[],
  options: CommitOptions = {},
): Promise<void> {
  const temps = new Map<number, string>();
  const graves: string[] = [];
  const done: number[] = [];
  try {
    await prepareTemps(fs, steps, temps);
    await options.beforeRenames?.();
    for (const [index, step] of steps.entries()) {
      if (step.kind === 'remove') {
        // Where requests wait in a server's queue (over SSH), one a dropped connection left there is made later: the
        // file goes through a temp directory (moveIntoGrave), listed before it is made, so that a failed commit
        // removes it with the file renamed into it.
        const grave = fs.capabilities.requestsInOrder ? tempBeside(fs, step.path) : undefined;
        if (grave !== undefined) graves.push(grave);
        let moved = false;
        try {
          if (grave === undefined) await fs.unlink(step.path);
          else {
            await fs.mkdir(grave);
            await moveIntoGrave(fs, step.path, grave);
            moved = true;
            await removeGrave(fs, grave);
          }
        } catch (error) {
          // Once moved, the path no longer holds its file; a transport that failed may have lost the answer of a
          // removal or a move that was made. Either is undone as a step done, which is right either way (what the
          // path held is put back).
          if (moved || hasErrno(error, 'ECONNRESET')) done.push(index);
          throw error;
        }
        if (grave !== undefined) graves.pop();
      } else if (step.kind === 'write' && step.inPlace) {
        try {
          await overwriteBytesInPlace(fs, step.path, step.bytes, step.mode);
        } catch (error) {
          // A rewrite in place that failed may have changed some of the file: it is undone as a step done.
          done.push(index);
          throw error;
        }
      } else {
        try {
          await renameTempOver(fs, temps.get(index)!, step.path);
        } catch (error) {
          // Made or not, it is undone as a step done: the old content put back is right either way. Its temp file
          // stays listed: removing it first makes sure a rename still on its way can no longer be made.
          if (error instanceof RenameOutcomeUnknownError) done.push(index);
          else temps.delete(index);
          throw error;
        }
        temps.delete(index);
      }
      done.push(index);
    }
  } catch (error) {
    await Promise.all([...temps.values()].map((temp) => fs.unlink(temp).catch(() => undefined)));
    await Promise.all(
      graves.map(async (grave) => {
        await fs.unlink(buriedIn(fs, grave)).catch(() => undefined);
        await fs.rmdir(grave).catch(() => undefined);
      }),
    );
    const unrestored: string[] = [];
    for (const index of done.reverse()) {
      const step = steps[index]!;
      const inPlace = step.kind === 'write' && step.inPlace === true;
      await restore(fs, step.path, step.previous, inPlace).catch(() => unrestored.push(step.path));
    }
    throw new CommitFailedError(error, unrestored);
  }
  const paths = pathApiFor(fs.platform);
  await flushRenames(fs, new Set(steps.map((step) => paths.dirname(step.path))));
}

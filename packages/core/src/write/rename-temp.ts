import { renameOutcomeUnknownText } from '../errors.js';
import { errnoCode, hasErrno } from '../fs/errno.js';
import type { FileSystem } from '../fs/file-system.js';
import { pathExists } from '../fs/stat-if-exists.js';

/**
 * The rename of a temp file over its target failed with its answer lost (the transport failed), and whether it was
 * made could not be told either: the target may hold the old content or the new. `code` is the transport's
 * (`ECONNRESET`); the message is its own, then what is unknown and where the new content is if it was not made.
 */
export class RenameOutcomeUnknownError extends Error {
  readonly code: string | undefined;

  constructor(
    override readonly cause: unknown,
    target: string,
    temp: string,
  ) {
    super(
      `${cause instanceof Error ? cause.message : String(cause)}; ${renameOutcomeUnknownText(target, temp)}`,
    );
    this.name = 'RenameOutcomeUnknownError';
    this.code = errnoCode(cause);
  }
}

/**
 * Renames `temp` (a temp file this process made beside `target`, under an unpredictable name) over `target`, and
 * removes it when the rename failed (docs/writing.md#atomic-writes). A transport that fails (`ECONNRESET`: a dropped
 * connection) may have lost the answer of a rename that was made; removing the temp file then tells which: gone means
 * the rename took it, and this resolves; removed means the rename was not made and now never will be, and the
 * transport's error is thrown. When even that cannot be told, {@link RenameOutcomeUnknownError} is thrown.
 */
export async function renameTempOver(fs: FileSystem, temp: string, target: string): Promise<void> {
  try {
    await fs.rename(temp, target);
    return;
  } catch (error) {
    if (!hasErrno(error, 'ECONNRESET')) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    let removed: boolean;
    try {
      await fs.unlink(temp);
      removed = true;
    } catch (unlinkError) {
      if (!hasErrno(unlinkError, 'ENOENT')) throw new RenameOutcomeUnknownError(error, target, temp);
      removed = false;
    }
    // Nothing but the rename takes a temp file whose name only this process knows, unless its directory went too.
    if (removed || !(await pathExists(fs, target))) throw error;
  }
}

/**
 * Flushes the directories renames were made in, where the backend can (`syncDirectory`). It runs once the renames are
 * made: the change is done then, and must read as done. A backend's `syncDirectory` never fails (docs/file-systems.md);
 * one that rejects all the same is let pass, rather than turn a written change into one reported as failed (with
 * nothing changed, or undone over what it just wrote).
 */
export async function flushRenames(fs: FileSystem, directories: Iterable<string>): Promise<void> {
  await Promise.all([...directories].map((directory) => fs.syncDirectory(directory).catch(() => undefined)));
}

import { hasErrno } from '../fs/errno.js';
import type { FileSystem } from '../fs/file-system.js';
import { pathApiFor } from '../path/platform-path.js';

// A grave is a directory under a temp name (`.{name}.kimi-tmp-{12 hex digits}`) that a file is renamed into before it
// is removed, where a server's queue may hold a request past a dropped connection (`requestsInOrder`: over SSH): a late
// removal of a path would take whatever is there by then, while a late rename into a grave finds it gone.

/** The one name a grave holds what it took under. */
const BURIED = 'removed';

/** Where `grave` holds what it took. */
export function buriedIn(fs: FileSystem, grave: string): string {
  return pathApiFor(fs.platform).join(grave, BURIED);
}

/**
 * Whether a rename into `grave` whose answer a dropped connection lost was made: removing the empty grave says it was
 * not, and keeps it from ever being made (a request still on its way in a server that is going away finds no
 * directory to rename into); a grave not empty says it was. `undefined` when even that cannot be told: the grave may
 * still be there.
 */
export async function stopLateMove(fs: FileSystem, grave: string): Promise<boolean | undefined> {
  return fs.rmdir(grave).then(
    () => false,
    (error: unknown) => (hasErrno(error, 'ENOTEMPTY', 'EEXIST') ? true : undefined),
  );
}

/**
 * Removes what `grave` holds, then the grave, sent together (a backend with a queue serves them in order): the
 * removal is made by then. Resolves to whether the grave is gone too: an empty directory that cannot be removed (its
 * request cut off with the connection) does not undo the removal, but stays in the workspace until someone removes it.
 */
export async function removeGrave(fs: FileSystem, grave: string): Promise<boolean> {
  const [, gone] = await Promise.all([
    fs.unlink(buriedIn(fs, grave)),
    fs.rmdir(grave).then(
      () => true,
      (error: unknown) => hasErrno(error, 'ENOENT'),
    ),
  ]);
  return gone;
}

/**
 * Removes a grave that was left (its process killed between the rename into it and its removal, or a connection lost
 * for good there), only while it holds nothing but what it took: whether it is gone now. A grave already gone has
 * nothing to remove; one holding anything else, or a directory under its one name, is not ours to empty.
 */
export async function removeLeftGrave(fs: FileSystem, grave: string): Promise<boolean> {
  try {
    // Most are empty: one request.
    if (await fs.rmdir(grave).then(() => true, nonEmpty)) return true;
    const names = (await fs.readdir(grave)).map((entry) => entry.name);
    if (names.some((name) => name !== BURIED)) return false;
    if (names.length > 0) {
      if ((await fs.lstat(buriedIn(fs, grave))).isDirectory()) return false;
      await fs.unlink(buriedIn(fs, grave));
    }
    await fs.rmdir(grave);
    return true;
  } catch (error) {
    // Removed meanwhile (by its own process, or another clean-up), filled again, or no directory: left as it is.
    if (hasErrno(error, 'ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR')) return false;
    throw error;
  }
}

/** `false` for a directory that could not be removed as it is not empty; any other failure is thrown. */
function nonEmpty(error: unknown): false {
  if (hasErrno(error, 'ENOTEMPTY', 'EEXIST')) return false;
  throw error;
}

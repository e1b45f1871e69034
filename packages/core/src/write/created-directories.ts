import { hasErrno } from '../fs/errno.js';
import type { FileSystem } from '../fs/file-system.js';

/**
 * Removes directories on `fs` this call created, deepest first, so a change that ends without a write leaves none behind
 * (docs/writing.md). Only empty ones go: a directory someone else has put something into meanwhile is theirs now.
 */
export async function removeCreatedDirectories(fs: FileSystem, created: readonly string[]): Promise<void> {
  for (const directory of [...created].reverse()) {
    try {
      await fs.rmdir(directory);
    } catch {
      // Not empty, or already gone: either way nothing of ours is left to remove.
    }
  }
}

/**
 * Creates the missing directories of a change on `fs`, shallowest first, and returns those it created (a directory made by
 * someone else meanwhile is fine, as long as it is a directory). `modeOf` gives a directory the permission bits it is
 * to have (a rewind puts back a checkpoint's); without it, or where it answers `undefined`, a directory gets the
 * backend's default. When one cannot be made, those made before it are removed again before the error is thrown.
 */
export async function createDirectories(
  fs: FileSystem,
  directories: readonly string[],
  modeOf: (directory: string) => number | undefined = () => undefined,
): Promise<string[]> {
  const created: string[] = [];
  try {
    for (const directory of directories) {
      const mode = modeOf(directory);
      if (!(await makeDirectory(fs, directory, mode, created))) continue;
      // mkdir's mode passes through the umask: the bits asked for are set exactly (on ours, never on theirs).
      if (mode !== undefined) await fs.chmod(directory, mode);
    }
  } catch (error) {
    await removeCreatedDirectories(fs, created);
    throw error;
  }
  return created;
}

/**
 * Makes `directory` and adds it to `created`; resolves false when someone else had made it meanwhile, and throws
 * whatever else stops it.
 */
async function makeDirectory(
  fs: FileSystem,
  directory: string,
  mode: number | undefined,
  created: string[],
): Promise<boolean> {
  try {
    await fs.mkdir(directory, mode === undefined ? undefined : { mode });
    created.push(directory);
    return true;
  } catch (error) {
    // A transport that failed (a dropped connection) may have lost the answer of a mkdir that was made: it is
    // removed with the others, which is right either way (one that is not there, or not empty, is left alone).
    if (hasErrno(error, 'ECONNRESET')) created.push(directory);
    if (!hasErrno(error, 'EEXIST') || !(await fs.stat(directory)).isDirectory()) throw error;
    return false;
  }
}

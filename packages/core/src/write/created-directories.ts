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
 * someone else meanwhile is fine, as long as it is a directory). When one cannot be made, those made before it are
 * removed again before the error is thrown.
 */
export async function createDirectories(fs: FileSystem, directories: readonly string[]): Promise<string[]> {
  const created: string[] = [];
  try {
    for (const directory of directories) {
      try {
        await fs.mkdir(directory);
        created.push(directory);
      } catch (error) {
        // A transport that failed (a dropped connection) may have lost the answer of a mkdir that was made: it is
        // removed with the others, which is right either way (one that is not there, or not empty, is left alone).
        if (hasErrno(error, 'ECONNRESET')) created.push(directory);
        if (!hasErrno(error, 'EEXIST') || !(await fs.stat(directory)).isDirectory()) throw error;
      }
    }
  } catch (error) {
    await removeCreatedDirectories(fs, created);
    throw error;
  }
  return created;
}

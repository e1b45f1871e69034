import { isMissingPathError } from './errno.js';
import type { FileStats, FileSystem } from './file-system.js';

/**
 * `fs.stat`, or `undefined` when nothing is there (ENOENT), including when a parent is a file (ENOTDIR: the path
 * cannot exist). Other failures are thrown.
 */
export async function statIfExists(fs: FileSystem, filePath: string): Promise<FileStats | undefined> {
  try {
    return await fs.stat(filePath);
  } catch (error) {
    if (isMissingPathError(error)) return undefined;
    throw error;
  }
}

/** Whether anything is at `filePath`, a link itself included (`lstat`); any failure to tell counts as nothing there. */
export async function pathExists(fs: FileSystem, filePath: string): Promise<boolean> {
  try {
    await fs.lstat(filePath);
    return true;
  } catch {
    return false;
  }
}

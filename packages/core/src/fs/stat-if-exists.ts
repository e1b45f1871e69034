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

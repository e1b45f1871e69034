import type { FileSystem } from '../fs/file-system.js';
import { hasErrno } from '../fs/errno.js';
import { pathApiFor } from '../path/platform-path.js';

async function exists(fs: FileSystem, filePath: string): Promise<boolean> {
  try {
    await fs.lstat(filePath);
    return true;
  } catch (error) {
    if (hasErrno(error, 'ENOENT')) return false;
    // A file where a directory should be: it exists; creating the directory below it will fail clearly.
    if (hasErrno(error, 'ENOTDIR')) return true;
    throw error;
  }
}

/**
 * The ancestors of `filePath` that do not exist yet on `fs`, shallowest first: what must be created to write it
 * (the `createDirectories` of a change).
 */
export async function missingDirectories(fs: FileSystem, filePath: string): Promise<string[]> {
  const paths = pathApiFor(fs.platform);
  const missing: string[] = [];
  let directory = paths.dirname(filePath);
  while (!(await exists(fs, directory))) {
    missing.unshift(directory);
    const parent = paths.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return missing;
}

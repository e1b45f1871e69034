import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core/fs';
import { hasErrno } from '@kimi-tools/core/toolkit';

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

/** The ancestors of `filePath` on `fs` that do not exist yet, shallowest first (what must be created to write it). */
export async function missingDirectories(fs: FileSystem, filePath: string): Promise<string[]> {
  const missing: string[] = [];
  let directory = path.dirname(filePath);
  while (!(await exists(fs, directory))) {
    missing.unshift(directory);
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return missing;
}

/** How a created directory is listed: relative to the work dir with `/`, or absolute when outside it. */
export function displayDirectory(directory: string, realWorkDir: string): string {
  const relative = path.relative(realWorkDir, directory);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return directory;
  return relative.split(path.sep).join('/');
}

import type { FileSystem } from '../fs/file-system.js';
import { isMissingPathError } from '../fs/errno.js';
import { pathApiFor } from '../path/platform-path.js';

/**
 * A path that cannot be created: a part of it above the file exists and is not a directory (a file, a FIFO, a link
 * that leads to no directory). `levelsUp` says which part: 1 is the file's directory, 2 the one above it.
 */
export class PathThroughFileError extends Error {
  readonly code = 'ENOTDIR';

  constructor(
    readonly blocking: string,
    readonly levelsUp: number,
  ) {
    super(`ENOTDIR: not a directory, '${blocking}'`);
    this.name = 'PathThroughFileError';
  }
}

/** What is at `directory`: a directory (or a link to one), nothing (a part above it may be a file), or another entry. */
async function entryAt(fs: FileSystem, directory: string): Promise<'directory' | 'missing' | 'other'> {
  let stats;
  try {
    stats = await fs.lstat(directory);
  } catch (error) {
    if (isMissingPathError(error)) return 'missing';
    throw error;
  }
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink() && (await fs.stat(directory).catch(() => undefined))?.isDirectory())
    return 'directory';
  return 'other';
}

/**
 * The ancestors of `filePath` that do not exist yet on `fs`, shallowest first: what must be created to write it
 * (the `createDirectories` of a change). Throws {@link PathThroughFileError} when the nearest ancestor that exists is
 * not a directory: nothing can be created below it.
 */
export async function missingDirectories(fs: FileSystem, filePath: string): Promise<string[]> {
  const paths = pathApiFor(fs.platform);
  const missing: string[] = [];
  let directory = paths.dirname(filePath);
  for (let levelsUp = 1; ; levelsUp++) {
    const entry = await entryAt(fs, directory);
    if (entry === 'directory') return missing;
    if (entry === 'other') throw new PathThroughFileError(directory, levelsUp);
    missing.unshift(directory);
    const parent = paths.dirname(directory);
    if (parent === directory) return missing;
    directory = parent;
  }
}

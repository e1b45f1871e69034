import path from 'node:path';
import { tooManyLinksErrnoText } from '../errors.js';
import { errnoError, hasErrno, isMissingPathError } from '../fs/errno.js';
import type { FileStats, FileSystem } from '../fs/file-system.js';
import { followLinks } from '../fs/follow-links.js';
import { statIfExists } from '../fs/stat-if-exists.js';

/** The file a write through a path lands on, and what is there now. */
export interface LinkTarget {
  /** The path itself when it is not a symlink, else the final target (which may not exist yet, for a dangling link). */
  path: string;
  /** Its stats (no link is left to follow, so `lstat` gave what `stat` would), or `undefined` when nothing is there. */
  stats: FileStats | undefined;
}

/** `fs.lstat`, or `undefined` when nothing is there. */
async function lstatIfExists(fs: FileSystem, filePath: string): Promise<FileStats | undefined> {
  try {
    return await fs.lstat(filePath);
  } catch (error) {
    if (isMissingPathError(error)) return undefined;
    throw error;
  }
}

/**
 * Follows `filePath` on `fs` through every symlink to the file that is actually written, with the stats of what is
 * there: one `lstat` per link on the way and one for the end, no `stat` after it. A loop throws ELOOP.
 */
export async function resolveLinkTarget(fs: FileSystem, filePath: string): Promise<LinkTarget> {
  let stats: FileStats | undefined;
  const target = await followLinks(path.resolve(filePath), async (current, mayFollow) => {
    stats = await lstatIfExists(fs, current);
    if (!stats?.isSymbolicLink()) return { done: current };
    let link: string;
    try {
      link = await fs.readlink(current);
    } catch (error) {
      if (!isMissingPathError(error) && !hasErrno(error, 'EINVAL')) throw error;
      // The link went away (or stopped being one) since the lstat: whatever is there now is the target.
      stats = await statIfExists(fs, current);
      return { done: current };
    }
    if (!mayFollow) throw errnoError('ELOOP', tooManyLinksErrnoText(filePath));
    return { follow: path.resolve(path.dirname(current), link) };
  });
  return { path: target, stats };
}

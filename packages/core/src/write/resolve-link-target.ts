import path from 'node:path';
import { tooManyLinksErrnoText } from '../errors.js';
import { errnoError } from '../fs/errno.js';
import type { FileSystem } from '../fs/file-system.js';
import { followLinks, readLinkIfLink } from '../fs/follow-links.js';

/**
 * Follows `filePath` on `fs` through every symlink to the file that is actually written: the path itself when it is not a
 * link, else the final target (which may not exist yet, for a dangling link). A loop throws ELOOP.
 */
export function resolveLinkTarget(fs: FileSystem, filePath: string): Promise<string> {
  return followLinks(path.resolve(filePath), async (current, mayFollow) => {
    const target = await readLinkIfLink(fs, current);
    if (target === undefined) return { done: current };
    if (!mayFollow) throw errnoError('ELOOP', tooManyLinksErrnoText(filePath));
    return { follow: path.resolve(path.dirname(current), target) };
  });
}

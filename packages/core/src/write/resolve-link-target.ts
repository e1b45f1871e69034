import { promises as fs } from 'node:fs';
import path from 'node:path';

// Linux gives up after 40 links too.
const MAX_LINKS = 40;

/**
 * Follows `filePath` through every symlink to the file that is actually written: the path itself when it is not a
 * link, else the final target (which may not exist yet, for a dangling link).
 */
export async function resolveLinkTarget(filePath: string): Promise<string> {
  let current = path.resolve(filePath);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let stats;
    try {
      stats = await fs.lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw error;
    }
    if (!stats.isSymbolicLink()) return current;
    const target = await fs.readlink(current);
    current = path.resolve(path.dirname(current), target);
  }
  const error: NodeJS.ErrnoException = new Error(`ELOOP: too many symbolic links, open '${filePath}'`);
  error.code = 'ELOOP';
  throw error;
}

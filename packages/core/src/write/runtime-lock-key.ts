import type { FileSystem } from '../fs/file-system.js';

/**
 * The key under which a runtime serialises its changes to the file at `realPath` (`runtime.locks`): the path, or,
 * for a regular file with several hard links (where the backend reports inodes and link counts), the file itself,
 * its device and inode. Each name of a hard-linked file has a lock file of its own, and its rewrite in place is no
 * rename: two calls through two names both found the old bytes and the second overwrote the first. Under one key, the
 * second looks at the file only once the first has written, and is refused as modified. A path that cannot be looked
 * at keeps its own key: the change fails or creates the file.
 */
export async function runtimeLockKey(fs: FileSystem, realPath: string): Promise<string> {
  if (!fs.capabilities.inodes || !fs.capabilities.linkCounts) return realPath;
  const stats = await fs.stat(realPath).catch(() => undefined);
  if (!stats?.isFile() || stats.nlink === undefined || stats.nlink < 2) return realPath;
  // A NUL byte never occurs in a path: no path's key can be this one.
  return `\0file ${stats.dev}:${stats.ino}`;
}

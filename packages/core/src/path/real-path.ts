import fs from 'node:fs/promises';
import { pathApiFor } from './platform-path.js';

/** More symlink hops than this means a loop: the path is treated as not resolvable further. */
const MAX_LINK_HOPS = 40;

async function danglingLinkTarget(linkPath: string): Promise<string | undefined> {
  try {
    const stats = await fs.lstat(linkPath);
    if (!stats.isSymbolicLink()) return undefined;
    return await fs.readlink(linkPath);
  } catch {
    return undefined;
  }
}

/**
 * The real path of `absolutePath` even when it does not exist yet: symlinks of the longest existing prefix are
 * resolved and the missing tail is appended. A dangling symlink is followed to where it points (a write through it
 * would land there). Loops (ELOOP), a file used as a directory (ENOTDIR) and unreadable entries stop resolution at
 * that point instead of failing. Never throws.
 */
export async function realPathAllowMissing(
  absolutePath: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  const pathApi = pathApiFor(platform);
  let current = pathApi.normalize(absolutePath);
  const tail: string[] = [];
  let hops = 0;
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return tail.length === 0 ? real : pathApi.join(real, ...tail);
    } catch {
      const target = hops < MAX_LINK_HOPS ? await danglingLinkTarget(current) : undefined;
      if (target !== undefined) {
        hops += 1;
        current = pathApi.resolve(pathApi.dirname(current), target);
        continue;
      }
      const parent = pathApi.dirname(current);
      if (parent === current) return tail.length === 0 ? current : pathApi.join(current, ...tail);
      tail.unshift(pathApi.basename(current));
      current = parent;
    }
  }
}

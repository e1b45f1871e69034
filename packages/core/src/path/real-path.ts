import fs from 'node:fs/promises';
import { pathApiFor } from './platform-path.js';

/** More symlink hops than this means a loop: the path is treated as not resolvable further. */
const MAX_LINK_HOPS = 40;

async function realPathOrUndefined(filePath: string): Promise<string | undefined> {
  try {
    return await fs.realpath(filePath);
  } catch {
    return undefined;
  }
}

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
  for (let hops = 0; ; hops++) {
    const whole = await realPathOrUndefined(current);
    if (whole !== undefined) return whole;
    const { root } = pathApi.parse(current);
    const parts = current.slice(root.length).split(pathApi.sep).filter(Boolean);
    const prefix = (count: number) => pathApi.join(root, ...parts.slice(0, count));
    // Whether a prefix resolves is monotone (once a component is missing, a loop or a file, every longer prefix
    // fails too), so the longest resolvable one is found by bisection: a deep missing tail costs a few realpath
    // calls, not one per level.
    let resolvable = 0;
    let resolved = root;
    let unresolvable = parts.length;
    while (unresolvable - resolvable > 1) {
      const middle = (resolvable + unresolvable) >> 1;
      const real = await realPathOrUndefined(prefix(middle));
      if (real === undefined) unresolvable = middle;
      else [resolvable, resolved] = [middle, real];
    }
    if (resolvable === 0) resolved = (await realPathOrUndefined(root)) ?? root;
    const tail = parts.slice(resolvable + 1);
    const target = hops < MAX_LINK_HOPS ? await danglingLinkTarget(prefix(resolvable + 1)) : undefined;
    if (target === undefined) return pathApi.join(resolved, ...parts.slice(resolvable));
    current = pathApi.join(pathApi.resolve(resolved, target), ...tail);
  }
}

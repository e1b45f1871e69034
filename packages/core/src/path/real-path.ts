import type { FileSystem } from '../fs/file-system.js';
import { followLinks, readLinkIfLink } from '../fs/follow-links.js';
import { pathApiFor } from './platform-path.js';

async function realPathOrUndefined(fs: FileSystem, filePath: string): Promise<string | undefined> {
  try {
    return await fs.realpath(filePath);
  } catch {
    return undefined;
  }
}

/**
 * The whole path resolved in one call, its last name allowed to be missing where the backend can do that itself (one
 * SFTP request instead of `realpath` of the path and of its parent). Where that fails, `realpath` would too.
 */
async function wholeRealPath(fs: FileSystem, filePath: string): Promise<string | undefined> {
  if (!fs.realpathLastMayBeMissing) return realPathOrUndefined(fs, filePath);
  try {
    return await fs.realpathLastMayBeMissing(filePath);
  } catch {
    return undefined;
  }
}

/**
 * The real path of `absolutePath` on `fs` even when it does not exist yet: symlinks of the longest existing prefix are
 * resolved and the missing tail is appended. A dangling symlink is followed to where it points (a write through it
 * would land there). Loops (ELOOP), a file used as a directory (ENOTDIR) and unreadable entries stop resolution at
 * that point instead of failing. Never throws.
 */
export async function realPathAllowMissing(
  fs: FileSystem,
  absolutePath: string,
  platform: NodeJS.Platform = fs.platform,
): Promise<string> {
  const pathApi = pathApiFor(platform);
  return followLinks(pathApi.normalize(absolutePath), async (current, mayFollow) => {
    const whole = await wholeRealPath(fs, current);
    if (whole !== undefined) return { done: whole };
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
      const real = await realPathOrUndefined(fs, prefix(middle));
      if (real === undefined) unresolvable = middle;
      else [resolvable, resolved] = [middle, real];
    }
    if (resolvable === 0) resolved = (await realPathOrUndefined(fs, root)) ?? root;
    // A dangling symlink is followed to where it points; an unreadable entry or a loop ends the walk here.
    const target = mayFollow
      ? await readLinkIfLink(fs, prefix(resolvable + 1)).catch(() => undefined)
      : undefined;
    if (target === undefined) return { done: pathApi.join(resolved, ...parts.slice(resolvable)) };
    return { follow: pathApi.join(pathApi.resolve(resolved, target), ...parts.slice(resolvable + 1)) };
  });
}

/**
 * Whether `target` still resolves to the real path the policy checked (and an approval was given for): a directory on
 * the way, or the file itself, may have been swapped for a symlink since.
 */
/**
 * Those of `realPaths` (each the real path of a file, or of where one would be) that resolve elsewhere now: a directory
 * on the way, or the file itself, became a link, or was moved. A write to such a path would land wherever it leads.
 */
export async function pathsResolvingElsewhere(
  fs: FileSystem,
  realPaths: readonly string[],
): Promise<string[]> {
  const looks = await Promise.all(
    realPaths.map(async (real) => ((await realPathAllowMissing(fs, real)) === real ? [] : [real])),
  );
  return looks.flat();
}

export async function stillResolvesTo(
  fs: FileSystem,
  target: { absolute: string; real: string },
): Promise<boolean> {
  return (await realPathAllowMissing(fs, target.absolute)) === target.real;
}

import { isMissingPathError } from './errno.js';
import type { FileSystem } from './file-system.js';

/** Symbolic links followed at most along one path, as Linux does (its ELOOP limit); more means a loop. */
export const MAX_LINK_HOPS = 40;

/** One step of a walk along symbolic links: where the walk ends, or the path a link leads to next. */
export type LinkStep = { done: string } | { follow: string };

/**
 * Walks from `start` along symbolic links, one `step` per path reached. `mayFollow` turns false once
 * {@link MAX_LINK_HOPS} links were followed: the step must then end the walk (or throw ELOOP).
 */
export async function followLinks(
  start: string,
  step: (current: string, mayFollow: boolean) => Promise<LinkStep>,
): Promise<string> {
  let current = start;
  for (let hops = 0; ; hops++) {
    const next = await step(current, hops < MAX_LINK_HOPS);
    if ('done' in next) return next.done;
    current = next.follow;
  }
}

/** The target text of `linkPath` when it is a symbolic link; `undefined` when it is something else or missing. */
export async function readLinkIfLink(fs: FileSystem, linkPath: string): Promise<string | undefined> {
  try {
    if (!(await fs.lstat(linkPath)).isSymbolicLink()) return undefined;
    return await fs.readlink(linkPath);
  } catch (error) {
    if (isMissingPathError(error)) return undefined;
    throw error;
  }
}

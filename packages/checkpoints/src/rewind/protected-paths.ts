import type { EntryLookup } from '../scan/manifest.js';
import type { RewindOptions } from './rewind-types.js';
import { nonDirectoryAbove } from './plan-rewind.js';

/** Paths judged at once: the runtime's path policy may stat each one (over SSH, a round trip). */
const JUDGED_AT_ONCE = 16;

/**
 * The paths a rewind must leave as they are (`RewindOptions.protect`), among those that differ and the links or files
 * standing where the checkpoint had a directory above them (the plan names those too): each judged once, several at
 * a time. Without `protect`, none.
 */
export async function protectedPaths(
  differing: readonly string[],
  now: EntryLookup,
  protect: RewindOptions['protect'],
): Promise<Set<string>> {
  const found = new Set<string>();
  if (protect === undefined) return found;
  const candidates = new Set(differing);
  for (const path of differing) {
    const through = nonDirectoryAbove(now, path);
    if (through !== undefined) candidates.add(through);
  }
  const paths = [...candidates];
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      if (await protect(path, now(path) !== undefined)) found.add(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(JUDGED_AT_ONCE, paths.length) }, lane));
  return found;
}

/**
 * What a checkpoint recorded of one path of the workspace (paths are `/`-separated, relative to the workspace root):
 * its content, never its stamp, so two checkpoints of the same files have the same manifest (stored once).
 */
export type ManifestEntry =
  | { type: 'file'; hash: string; size: number; mode: number }
  /**
   * A file over the size limit: its content is not stored, so it cannot be restored. `stamp` stands for its content
   * (its size and times): a new stamp is a new version.
   */
  | { type: 'large'; size: number; mode: number; stamp: string }
  | { type: 'link'; target: string }
  | { type: 'dir'; mode: number };

/** Every tracked path of the workspace at one moment, by path. */
export interface Manifest {
  entries: Record<string, ManifestEntry>;
}

/** The entry of a path in a manifest (or in the workspace now), `undefined` where it has none. */
export type EntryLookup = (path: string) => ManifestEntry | undefined;

/** A record of entries by path with no prototype, so that a file named `__proto__` is an entry like any other. */
export function emptyEntries(): Manifest['entries'] {
  return Object.create(null) as Manifest['entries'];
}

/** Whether two entries hold the same thing: same content and mode, same link target, same directory mode. */
export function sameContent(a: ManifestEntry | undefined, b: ManifestEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'file':
      return a.hash === (b as typeof a).hash && a.mode === (b as typeof a).mode;
    case 'large':
      return a.stamp === (b as typeof a).stamp && a.mode === (b as typeof a).mode;
    case 'link':
      return a.target === (b as typeof a).target;
    case 'dir':
      return a.mode === (b as typeof a).mode;
  }
}
